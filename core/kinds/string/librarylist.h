#pragma once

namespace LockScope {

class StringLibrary;

// One per folder of kinds/ (kinds/<library>/<library>library.cpp); StringLibraries::all() lists them.
namespace Libraries {
const StringLibrary &shedLock();
const StringLibrary &spring();
const StringLibrary &pythonRedisLock();
const StringLibrary &redisPy();
const StringLibrary &redsync();
const StringLibrary &bsmRedislock();
const StringLibrary &nodeRedlock();
const StringLibrary &redisSemaphoreMutex();
const StringLibrary &redlock();
const StringLibrary &laravel();
const StringLibrary &distributedLock();
} // namespace Libraries

} // namespace LockScope
