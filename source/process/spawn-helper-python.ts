/**
 * The spawner in Python (decisions 0056, 0059): the Node spawner's protocol
 * (spawner-script.ts), but each child is started with `os.posix_spawn`,
 * which glibc implements with a vfork-style clone: no copy of the helper's
 * page tables and no teardown of a copied address space at exec — the cost
 * that made a fork-based helper (Node, or Perl: measured) no cheaper than
 * acai forking itself — and a start of ~16 ms of CPU where Node's is ~45.
 * One script for both places: acai's host spawn helper (spawn-helper.ts),
 * and, with the argument "namespace", a sandbox policy's spawner inside
 * bwrap (sandbox-launch.ts), where `sweep` is allowed. Only modules
 * written in C (`_socket`, `select`'s epoll, `_signal`; not json, re,
 * selectors or enum: they doubled its start, 16 → 33 ms of CPU; answers
 * are written by a small JSON encoder of its own). Python ≥ 3.9
 * (pidfd_open) on Linux ≥ 5.3, and a probe spawn of /bin/true with the
 * options every child gets, checked at start. When
 * /usr/bin/python3 is missing (or hidden by the policy) or this script does
 * not get ready, acai uses the Node script.
 *
 * Run as `python3 -I -S -c SCRIPT socketPath [namespace]` (isolated: no
 * PYTHON* variables, no site). Requests on stdin as NUL records
 * (spawner-wire.ts `nulRecord`): hello, spawn, kill, sweep (ignored unless
 * "namespace" was given and the parent is the namespace's init, pid 1 —
 * on the host pid 1 is the host's init). Answers on stdout as the Node
 * script's JSON lines: {ready}, {started, conns}, {error, code},
 * {exit, code, signal}. Spare connections opened ahead, each starting
 * "<secret> <conn id>\n", handed to the child as its fds; a `text` stdin
 * written through a non-blocking pipe (EPIPE ignored). The child: its own
 * session and group, every signal at its default and none blocked, the cwd
 * (the helper changes into it for the spawn, then back to /) and exactly the
 * environment sent; the command looked up on that environment's PATH as
 * Node does (a folder where it is not there passed over with a stat), a
 * file without a #! line run by /bin/sh as Node does; a failed chdir or
 * exec is reported with its errno name (ENOENT, EACCES …).
 * Exits are watched through pidfds. At EOF on stdin, on a failed write to
 * acai (EPIPE: acai is gone) and on any error it SIGKILLs every child's
 * group and exits.
 *
 * `sweep` (namespace only), as the Node script's: every process reparented
 * to the namespace's init (pid 1) whose session is not a running child's is
 * SIGKILLed, round after round 2 ms apart (at most 50), its own children
 * becoming orphans in turn — also those that dropped acai's marker.
 *
 * A spawn may carry a CLAUDE_ENV_FILE to keep (namespace only, decision
 * 0069): the child gets a file of its own under the namespace's private
 * /dev/shm, holding the text sent, as CLAUDE_ENV_FILE; at its exit the file
 * (at most ENV_FILE_MAX_BYTES + 1 bytes) goes back in the exit line as
 * `envFile` (base64) and the folder is removed.
 */
import { ENV_FILE_MAX_BYTES } from "./spawner-wire.js";

export const PYTHON_HELPER_SCRIPT = String.raw`
import os, sys, _socket, select, _signal, errno, time, binascii
if sys.version_info < (3, 9): sys.exit("python 3.9 or later is needed")
path = sys.argv[1]
NAMESPACE = sys.argv[2:3] == ["namespace"] and os.getppid() == 1
SIGNAME = {}
SIGNUM = {}
for k in dir(_signal):
    if k.startswith("SIG") and not k.startswith("SIG_"):
        SIGNAME.setdefault(getattr(_signal, k), k); SIGNUM[k] = getattr(_signal, k)
_signal.signal(_signal.SIGINT, _signal.SIG_IGN)
_signal.signal(_signal.SIGHUP, _signal.SIG_IGN)
SIGDEF = [s for s in _signal.valid_signals() if s not in (_signal.SIGKILL, _signal.SIGSTOP)]
os.close(os.pidfd_open(os.getpid()))
os.waitpid(os.posix_spawn(b"/bin/true", [b"/bin/true"], {}, setsid=True, setsigdef=SIGDEF, setsigmask=[]), 0)
ep = select.epoll()
watched = {}
state = {"secret": b"", "next": 0, "sweep": -1, "sweep_at": 0.0}
pool = []
waiting = []
runs = {}
writing = {}
POOL_SIZE = 4
ENV_CAP = ${ENV_FILE_MAX_BYTES + 1}
HEXDIGITS = b"0123456789abcdef"
ESC = {'"': '\\"', "\\": "\\\\"}

def watch(fd, events, kind, data):
    ep.register(fd, events); watched[fd] = (kind, data)

def unwatch(fd):
    if watched.pop(fd, None) is not None: ep.unregister(fd)

def end_all(code=0):
    for pid in list(runs):
        try: os.killpg(pid, _signal.SIGKILL)
        except OSError: pass
    os._exit(code)

def js(v):
    if v is None: return "null"
    if v is True or v is False: return "true" if v else "false"
    if isinstance(v, int): return str(v)
    if isinstance(v, str): return '"' + "".join(ESC.get(c) or (c if c >= " " else "\\u%04x" % ord(c)) for c in v) + '"'
    if isinstance(v, list): return "[" + ",".join(js(x) for x in v) + "]"
    return "{" + ",".join(js(k) + ":" + js(x) for k, x in v.items()) + "}"

def send(obj):
    try: os.write(1, (js(obj) + "\n").encode())
    except OSError: end_all(0)

def is_hex(b): return len(b) == 32 and not b.strip(HEXDIGITS)
def is_num(b): return 1 <= len(b) <= 15 and b.isdigit()

def open_spare():
    s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        s.connect(path)
        state["next"] += 1
        s.sendall(state["secret"] + b" %d\n" % state["next"])
    except OSError:
        s.close(); return False
    entry = [s, state["next"]]
    pool.append(entry)
    watch(s.fileno(), select.EPOLLIN, "spare", entry)
    return True

def refill():
    if not state["secret"]: return
    want = POOL_SIZE + sum(r["need"] for r in waiting)
    while len(pool) < want:
        if not open_spare(): break

def fail(run, err):
    code = errno.errorcode.get(err, "E%d" % err)
    send({"id": run["id"], "token": run["token"].decode(), "error": "spawn %s %s" % (run["command"].decode("utf-8", "replace"), code), "code": code})

def candidates(run):
    cmd = run["command"]
    if b"/" in cmd: return [cmd]
    p = run["envmap"].get(b"PATH", b"/usr/bin:/bin")
    return [os.path.join(d or b".", cmd) for d in p.split(b":")]

def spawn_as(exe, argv, run, actions):
    return os.posix_spawn(exe, argv, run["envmap"], file_actions=actions, setsid=True, setsigdef=SIGDEF, setsigmask=[])

def spawn_one(run, actions):
    seen = None
    for exe in candidates(run):
        # A PATH folder without the command is passed over with a stat (~2 us), not a failed
        # spawn (~140 us each: a clone, the exec's ENOENT and the wait).
        try: os.stat(exe)
        except OSError as e:
            if e.errno in (errno.ENOENT, errno.ENOTDIR): continue
        try:
            return spawn_as(exe, [run["command"]] + run["args"], run, actions)
        except OSError as e:
            if e.errno == errno.ENOEXEC:
                return spawn_as(b"/bin/sh", [b"/bin/sh", exe] + run["args"], run, actions)
            if e.errno == errno.EACCES: seen = e.errno
            elif e.errno not in (errno.ENOENT, errno.ENOTDIR): raise
    raise OSError(seen or errno.ENOENT, "not found")

def env_file(run):
    if not NAMESPACE: raise OSError(errno.EPERM, "kept CLAUDE_ENV_FILE outside a sandbox")
    d = "/dev/shm/acai-env-" + binascii.hexlify(os.urandom(8)).decode()
    os.mkdir(d, 0o700)
    run["envdir"] = d
    fd = os.open(d + "/env", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try: os.write(fd, run["envfile"])
    finally: os.close(fd)
    run["envmap"][b"CLAUDE_ENV_FILE"] = (d + "/env").encode()

def env_back(run):
    d = run.get("envdir")
    if d is None: return None
    got = None
    try:
        # Not a link, nor a FIFO that would block the spawner: a regular file, or nothing.
        fd = os.open(d + "/env", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        try:
            if os.fstat(fd).st_mode & 0o170000 != 0o100000: raise OSError(errno.EINVAL, "not a file")
            got = b""
            while len(got) < ENV_CAP:
                chunk = os.read(fd, ENV_CAP - len(got))
                if not chunk: break
                got += chunk
        finally: os.close(fd)
    except OSError: got = None
    try:
        for name in os.listdir(d): os.unlink(d + "/" + name)
        os.rmdir(d)
    except OSError: pass
    return None if got is None else binascii.b2a_base64(got, newline=False).decode()

def start(run, conns):
    fds = [c[0].fileno() for c in conns]
    extra = []
    w = None
    try:
        if run["envfile"] is not None: env_file(run)
        if run["stdin"] == b"text":
            r, w = os.pipe(); extra.append(r); fds.insert(0, r)
        elif run["stdin"] == b"none":
            r = os.open("/dev/null", os.O_RDONLY); extra.append(r); fds.insert(0, r)
        os.chdir(run["cwd"])
        try:
            pid = spawn_one(run, [(os.POSIX_SPAWN_DUP2, fd, i) for i, fd in enumerate(fds)])
        finally:
            os.chdir("/")
    except (OSError, ValueError) as e:
        for fd in extra: os.close(fd)
        for c in conns: c[0].close()
        if w is not None: os.close(w)
        env_back(run)
        return fail(run, getattr(e, "errno", None) or errno.EINVAL)
    for fd in extra: os.close(fd)
    for c in conns: c[0].close()
    pidfd = os.pidfd_open(pid)
    run["pid"] = pid
    runs[pid] = run
    watch(pidfd, select.EPOLLIN, "exit", pid)
    if w is not None:
        os.set_blocking(w, False)
        writing[w] = bytearray(run["text"])
        write_text(w)
    send({"id": run["id"], "token": run["token"].decode(), "started": pid, "conns": [c[1] for c in conns]})

def write_text(w):
    buf = writing[w]
    try:
        while buf:
            n = os.write(w, buf)
            del buf[:n]
    except BlockingIOError:
        if w not in watched: watch(w, select.EPOLLOUT, "text", w)
        return
    except OSError:
        pass
    unwatch(w)
    os.close(w); del writing[w]

def reap(pid, pidfd):
    got, status = os.waitpid(pid, os.WNOHANG)
    if got != pid: return
    unwatch(pidfd); os.close(pidfd)
    run = runs.pop(pid)
    if os.WIFSIGNALED(status):
        n = os.WTERMSIG(status)
        code, sig = None, SIGNAME.get(n, "SIG%d" % n)
    else:
        code, sig = os.WEXITSTATUS(status), None
    out = {"id": run["id"], "token": run["token"].decode(), "exit": True, "code": code, "signal": sig}
    kept = env_back(run)
    if kept is not None: out["envFile"] = kept
    send(out)

def orphans():
    found = []
    try: names = os.listdir("/proc")
    except OSError: names = []
    for name in names:
        if not name.isdigit() or int(name) <= 1 or int(name) == os.getpid(): continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f: stat = f.read()
        except OSError: continue
        fields = stat[stat.rfind(b")") + 2:].split(b" ")
        if fields[0] != b"Z" and fields[1] == b"1" and int(fields[3]) not in runs: found.append(int(name))
    return found

def sweep_round():
    found = orphans()
    for pid in found:
        try: os.kill(pid, _signal.SIGKILL)
        except OSError: pass
    if found and state["sweep"] < 50:
        state["sweep"] += 1; state["sweep_at"] = time.monotonic() + 0.002
    else:
        state["sweep"] = -1

def timeout():
    t = 0.01 if (waiting and len(pool) < waiting[0]["need"]) else -1
    if state["sweep"] >= 0:
        due = max(0.0, state["sweep_at"] - time.monotonic())
        t = due if t < 0 else min(t, due)
    return t

def flush():
    while waiting and len(pool) >= waiting[0]["need"]:
        run = waiting.pop(0)
        conns = pool[:run["need"]]; del pool[:run["need"]]
        for c in conns: unwatch(c[0].fileno())
        start(run, conns)
    refill()

def request(payload):
    f = payload.split(b"\0")
    op = f.pop(0)
    if op == b"hello":
        if not state["secret"] and f and is_hex(f[0]): state["secret"] = f[0]; flush()
    elif op == b"spawn" and state["secret"]:
        if len(f) < 7: return
        rid, token, stdin, command, cwd, nargs = f[:6]; f = f[6:]
        if not (is_num(rid) and is_hex(token) and stdin in (b"socket", b"none", b"text") and is_num(nargs)): return
        nargs = int(nargs)
        if len(f) <= nargs: return
        args = f[:nargs]; f = f[nargs:]
        nenv = f.pop(0)
        if not is_num(nenv) or len(f) < int(nenv): return
        envmap = {}
        for pair in f[:int(nenv)]:
            k, _, v = pair.partition(b"=")
            envmap[k] = v
        f = f[int(nenv):]
        if not f or f[0][:1] not in (b"-", b"+"): return
        try: envfile = None if f[0] == b"-" else binascii.a2b_base64(f[0][1:])
        except ValueError: return
        text = b"\0".join(f[1:])
        waiting.append({"id": int(rid), "token": token, "stdin": stdin, "command": command, "cwd": cwd, "args": args, "envmap": envmap, "envfile": envfile, "text": text, "need": 3 if stdin == b"socket" else 2})
        flush()
    elif op == b"kill" and len(f) >= 2 and is_num(f[0]) and int(f[0]) > 1:
        n = SIGNUM.get(f[1].decode("latin-1"))
        if n is None: return
        try: os.killpg(int(f[0]), n)
        except OSError: pass
    elif op == b"sweep" and NAMESPACE and state["sweep"] < 0:
        state["sweep"] = 0; state["sweep_at"] = time.monotonic()

buf = bytearray()
watch(0, select.EPOLLIN, "stdin", None)
send({"ready": True})
try:
    while True:
        # What each fd was when polled: one closed and reused meanwhile is not taken for the new one.
        for fd, entry in [(fd, watched.get(fd)) for fd, _ in ep.poll(timeout())]:
            if entry is None or watched.get(fd) is not entry: continue
            kind, data = entry
            if kind == "exit": reap(data, fd)
            elif kind == "text": write_text(data)
            elif kind == "spare":
                if data in pool: pool.remove(data)
                unwatch(fd); data[0].close(); refill()
            elif kind == "stdin":
                chunk = os.read(0, 65536)
                if not chunk: end_all(0)
                buf += chunk
                while True:
                    nl = buf.find(b"\n")
                    if nl < 0 or nl > 10:
                        if nl > 10 or (nl < 0 and len(buf) > 10): end_all(0)
                        break
                    n = int(buf[:nl])
                    if len(buf) < nl + 1 + n: break
                    payload = bytes(buf[nl + 1:nl + 1 + n]); del buf[:nl + 1 + n]
                    request(payload)
        if waiting: flush()
        if state["sweep"] >= 0 and time.monotonic() >= state["sweep_at"]: sweep_round()
except Exception:
    end_all(1)
`;
