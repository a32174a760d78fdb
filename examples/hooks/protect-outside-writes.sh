#!/usr/bin/env bash
# Bash example: blocks Write and Edit on files outside the project folder.
# Exit 2 blocks the call; stderr is the reason the model sees.
set -u

if [[ "${HOOK_ACTION:-execute}" == "describe" ]]; then
  cat <<'JSON'
{
  "name": "protect-outside-writes",
  "description": "Blocks Write/Edit outside the project folder",
  "events": ["before_tool"],
  "matcher": { "tool": "Write|Edit" },
  "priority": 800,
  "timeout_ms": 2000,
  "failure": "closed"
}
JSON
  exit 0
fi

payload="$(cat)"
re='"file_path"[[:space:]]*:[[:space:]]*"(([^"\\]|\\.)*)"'
[[ "$payload" =~ $re ]] || exit 0
file="${BASH_REMATCH[1]}"
file="${file//\\\"/\"}"
file="${file//\\\//\/}"
file="${file//\\\\/\\}"

project="${ACAI_PROJECT_DIR:-$PWD}"
[[ "$file" == /* ]] || file="$project/$file"

# Normalize . and .. without touching the file system (the file may not exist yet).
IFS=/ read -ra parts <<<"$file"
out=()
for part in "${parts[@]}"; do
  case "$part" in
    "" | .) ;;
    ..) ((${#out[@]})) && unset 'out[${#out[@]}-1]' ;;
    *) out+=("$part") ;;
  esac
done
normalized="/$(IFS=/; echo "${out[*]}")"

case "$normalized/" in
  "$project"/*) exit 0 ;;
esac
echo "protect-outside-writes: $normalized is outside the project ($project); write inside it instead." >&2
exit 2
