#pragma once

namespace LockScope {

class StringLibrary;

// The string lock libraries, one line each: the registry StringLibraries::all() reads, in the order their token
// shapes are tried (a uuid1 before any 32 hex: node-redlock; 24 base64 characters without padding before
// bsm/redislock's 22 and its metadata). Each line X(name) names the factory `const StringLibrary &name()` that its
// own folder defines (kinds/<library>/<library>library.cpp); a library added is its folder plus one line here.
#define LOCKSCOPE_STRING_LIBRARIES(X)                                                                                  \
    X(shedLock)                                                                                                        \
    X(pythonRedisLock)                                                                                                 \
    X(redisPy)                                                                                                         \
    X(redsync)                                                                                                         \
    X(nodeRedlock)                                                                                                     \
    X(redisSemaphoreMutex)                                                                                             \
    X(redlock)                                                                                                         \
    X(laravel)                                                                                                         \
    X(distributedLock)                                                                                                 \
    X(spring)                                                                                                          \
    X(bsmRedislock)                                                                                                    \
    X(custom)

namespace Libraries {
#define LOCKSCOPE_DECLARE_STRING_LIBRARY(name) const StringLibrary &name();
LOCKSCOPE_STRING_LIBRARIES(LOCKSCOPE_DECLARE_STRING_LIBRARY)
#undef LOCKSCOPE_DECLARE_STRING_LIBRARY
} // namespace Libraries

} // namespace LockScope
