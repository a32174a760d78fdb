#!/usr/bin/env node
// The `acai` command of the installed package. Plain ES5 CommonJS on purpose: an old Node
// must be able to parse this file to say which Node acai needs, before anything is imported.
"use strict";

var MINIMUM = [22, 13, 0];
var MINIMUM_TEXT = "22.13";

function tooOld(version) {
  var parts = String(version).split(".");
  for (var i = 0; i < MINIMUM.length; i++) {
    var part = parseInt(parts[i], 10) || 0;
    if (part !== MINIMUM[i]) return part < MINIMUM[i];
  }
  return false;
}

if (tooOld(process.versions.node)) {
  process.stderr.write(
    "acai: acai needs Node " + MINIMUM_TEXT + " or newer; this is Node " + process.versions.node +
      " (" + process.execPath + "). Install a current Node (https://nodejs.org, or nvm install 24)" +
      " and run acai again.\n"
  );
  process.exit(1);
}

// Only a Node that passed the check parses the file with the dynamic import.
require("./start.cjs");
