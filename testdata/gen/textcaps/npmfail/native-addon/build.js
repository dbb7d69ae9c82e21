console.log("native-addon: probing toolchain");
console.log("native-addon: found node " + process.version);
console.error("gyp ERR! stack Error: not found: make");
console.error("gyp ERR! not ok");
process.exit(1);
