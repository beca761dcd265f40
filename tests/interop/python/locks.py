"""Drives a real Python lock library from PyPI for tests/tst_libinterop.cpp, with the contract of
tests/interop/locks.js, so that the test judges LockScope by the library's own acquire and release, not by our
reading of its source:

  locks.py hold <python-redis-lock|pottery|redis-py> <port> <name> <ttlMs>
    takes the lock, prints "held <token>", then on a line "release" on standard input gives it back through the
    library and prints "released" or "release-failed <reason>", and exits.
  locks.py try <python-redis-lock|pottery|redis-py> <port> <name> <ttlMs>
    one attempt, no retries: prints "acquired <token>" (and leaves the lock to its TTL) or "busy", and exits.
  locks.py wait python-redis-lock <port> <name> <ttlMs>
    the library's blocking acquire with no time limit (python-redis-lock sleeps in BLPOP on its signal list for up to
    the lock's expire between tries): prints "acquired <token>" once it has the lock, and exits.

The name is the library's: python-redis-lock keeps it at "lock:<name>" (with its signal list "lock-signal:<name>"),
pottery's Redlock at "redlock:<name>", redis-py's Lock verbatim. Runs in the virtual environment scripts/dev setup
makes beside this file (.venv, from requirements.txt): PyPI's releases, not Debian's.
"""

import sys

import redis
import redis_lock
from pottery import Redlock


def take(library, client, name, ttl_ms, retry):
    """(token, release) of a lock the library took, or None when it was busy. A holder waits up to 10 s for a lock
    an earlier test left behind, as the library's users would; a try makes one attempt."""
    if library == "python-redis-lock":
        lock = redis_lock.Lock(client, name, expire=max(1, ttl_ms // 1000))
        taken = lock.acquire(blocking=True, timeout=10) if retry else lock.acquire(blocking=False)
        return (lock.id, lock.release) if taken else None
    if library == "pottery":
        # raise_on_redis_errors: a server that cannot be reached is an error, not a "busy".
        lock = Redlock(key=name, masters={client}, auto_release_time=ttl_ms / 1000, raise_on_redis_errors=True)
        taken = lock.acquire(blocking=True, timeout=10) if retry else lock.acquire(blocking=False)
        return (lock._uuid, lock.release) if taken else None  # its token has no public accessor
    if library == "redis-py":
        lock = client.lock(name, timeout=ttl_ms / 1000, blocking_timeout=10)
        taken = lock.acquire(blocking=retry)
        return (lock.local.token.decode(), lock.release) if taken else None
    raise ValueError("unknown library " + library)


def out(line):
    print(line, flush=True)


def main():
    mode, library, port, name, ttl = sys.argv[1:6]
    client = redis.StrictRedis(host="127.0.0.1", port=int(port), decode_responses=False)
    if mode == "wait":
        lock = redis_lock.Lock(client, name, expire=max(1, int(ttl) // 1000))
        lock.acquire(blocking=True)
        out("acquired " + lock.id)
        return
    held = take(library, client, name, int(ttl), mode == "hold")
    if mode == "try":
        out("acquired " + held[0] if held else "busy")
        return
    if not held:
        out("error not acquired within 10 s")
        sys.exit(1)
    out("held " + held[0])
    for line in sys.stdin:
        if line.strip() != "release":
            continue
        try:
            held[1]()
            out("released")
        except Exception as err:  # the library's own refusal: NotAcquired, ReleaseUnlockedLock, LockNotOwnedError
            out("release-failed %s: %s" % (type(err).__name__, str(err).splitlines()[0] if str(err) else ""))
        return


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # a connection refused is no "busy": say what went wrong
        out("error %s: %s" % (type(err).__name__, err))
        sys.exit(1)
