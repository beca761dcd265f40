#pragma once

namespace LockScope::Guide {

// The child side of a process client (ProcessClient): runs one emulated Redisson client in this process, reads the
// player's commands on stdin and writes what the client does on stdout, one JSON object per line. Returns the exit
// code once stdin closes or the player says stop. Needs a running Q(Core)Application's event loop to return to:
// call it from main() after the application object is made. Hidden: `lockscope-cli guide-actor` and
// `lockscope --guide-actor` are not for people.
int runGuideActor();

} // namespace LockScope::Guide
