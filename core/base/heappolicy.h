#pragma once

namespace LockScope {

// The process keeps the heap memory it frees for its own reuse rather than handing it back to the system the moment
// it is freed (glibc; heappolicy.cpp says why). Called once, first thing in main(): the console, lockscope-cli, and
// the benches that run the monitor or the console in their own process.
void keepFreedHeapForReuse();

} // namespace LockScope
