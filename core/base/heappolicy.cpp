#include "base/heappolicy.h"

#if defined(__GLIBC__)
#include <climits>
#include <malloc.h>
#endif

namespace LockScope {

void keepFreedHeapForReuse()
{
#if defined(__GLIBC__)
    // With a million locks a new sort or filter frees and takes tens of megabytes at a time (the previous rows, a
    // sort's buffers). glibc gives the free memory at the top of its heap back to the system as soon as more than its
    // trim threshold is free there, a threshold that follows the largest block freed (up to 64 MB): one free() then
    // unmapped tens of megabytes inside a slice that had budgeted 8 ms (turns of 37-66 ms of CPU in bench_console,
    // traced to systrim), and the next sort faulted the pages in again, at about 3 ms a megabyte on a 2-vCPU VM.
    // Freed memory now stays in the heap for the next rows, and blocks up to 32 MB come from the heap too: left to
    // be mapped each on its own (the default for blocks over 128 KB once a threshold is set), every reply buffer
    // and list over 128 KB was faulted in afresh, and the monitor loaded a million locks in 41 s instead of 21 s.
    // The process keeps its high-water mark.
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

} // namespace LockScope
