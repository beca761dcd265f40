#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets into tests/fuzz/corpus/<target>/ (docs/fuzzing.md).

Seeds are real shapes: RESP replies and pub/sub pushes as Redis sends them, Redisson hashes and key names from
the protocol notes (binary names too), URLs and command lines from the README. Run it again after changing a
target's input layout; files it does not write (regress-* inputs a fuzzer found, and the inputs named by their SHA-1
that `scripts/dev fuzz-merge` carried in from fuzz runs) are left alone.
"""
import base64
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
UUID = [b"6e3d30b7-83b1-433a-9335-5e8b9916d3ac", b"0b5e4a0e-2f55-4c1a-9d7e-3a1f8c2b6d90",
        b"ffffffff-ffff-4fff-bfff-ffffffffffff"]
TXID = b"0123456789abcdef0123456789abcdef"


def write(target, name, data):
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


# ---- RESP ----------------------------------------------------------------------------------------------------
def bulk(b):
    return b"$%d\r\n%s\r\n" % (len(b), b)


def arr(*items):
    return b"*%d\r\n" % len(items) + b"".join(items)


def num(n):
    return b":%d\r\n" % n


def owner(i=0, tid=b"731"):
    return UUID[i] + b":" + tid


NODE7000 = arr(bulk(b"id"), bulk(b"e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca"), bulk(b"port"), num(7000),
               bulk(b"ip"), bulk(b"127.0.0.1"), bulk(b"endpoint"), bulk(b"127.0.0.1"), bulk(b"role"),
               bulk(b"master"), bulk(b"replication-offset"), num(72156), bulk(b"health"), bulk(b"online"))
NODE7003 = arr(bulk(b"id"), bulk(b"c9d93d9f2c0c524ff34cc11838c2003d8c29e013"), bulk(b"port"), num(7003),
               bulk(b"ip"), bulk(b"127.0.0.1"), bulk(b"role"), bulk(b"replica"), bulk(b"health"), bulk(b"loading"))
REPLIES = {
    "status-ok": b"+OK\r\n",
    "error": b"-ERR unknown command 'FOO', with args beginning with: \r\n",
    "error-wrongtype": b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
    "error-moved": b"-MOVED 3999 127.0.0.1:6381\r\n",
    "error-ask": b"-ASK 3999 127.0.0.1:6381\r\n",
    "error-noperm": b"-NOPERM User lockscope-monitor has no permissions to run the 'eval' command\r\n",
    "error-tryagain": b"-TRYAGAIN Multiple keys request during rehashing of slot\r\n",
    "integers": num(1) + num(-2) + num(9223372036854775807) + num(-9223372036854775808),
    "bulk": bulk(b"hello"),
    "bulk-binary": bulk(b"lock\x00\xff\xfe\r\n{x}"),
    "nil": b"$-1\r\n",
    "empty-bulk": b"$0\r\n\r\n",
    "nil-array": b"*-1\r\n",
    "empty-array": b"*0\r\n",
    "nested": arr(arr(num(1), b"$-1\r\n"), arr(), b"+QUEUED\r\n", b"-ERR in array\r\n"),
    "deepest": arr(arr(arr(arr(arr(arr(arr(num(7)))))))),
    "hgetall-rlock": arr(bulk(owner()), bulk(b"1")),
    "hgetall-rwlock": arr(bulk(b"mode"), bulk(b"write"), bulk(owner(0, b"1") + b":write"), bulk(b"1"),
                          bulk(owner(0, b"1")), bulk(b"2")),
    "hscan-page": arr(bulk(b"0"), arr(bulk(owner(1, b"42")), bulk(b"3"))),
    "scan-page": arr(bulk(b"17"), arr(bulk(b"orders:42"), bulk(b"redisson_lock_queue:{payroll}"),
                                      bulk(b"{report:7}:" + owner() + b":rwlock_timeout:1"))),
    "fenced-eval": arr(num(-1), num(7)),
    "config-get": arr(bulk(b"notify-keyspace-events"), bulk(b"Kh$zgx")),
    "numsub": arr(bulk(b"redisson_lock__channel:{orders:42}"), num(3)),
    "cluster-slots": arr(arr(num(0), num(5460), arr(bulk(b"127.0.0.1"), num(7000), bulk(b"e7d1ee")),
                             arr(bulk(b"127.0.0.1"), num(7003))),
                         arr(num(5461), num(10922), arr(bulk(b"127.0.0.1"), num(7001)))),
    "cluster-shards": arr(arr(bulk(b"slots"), arr(num(0), num(5460)), bulk(b"nodes"), arr(NODE7000, NODE7003))),
    "message": arr(bulk(b"message"), bulk(b"redisson_lock__channel:{orders:42}"), bulk(b"0")),
    "pmessage": arr(bulk(b"pmessage"), bulk(b"__keyspace@0__:*"), bulk(b"__keyspace@0__:orders:42"),
                    bulk(b"hincrby")),
    "smessage": arr(bulk(b"smessage"), bulk(b"redisson_rwlock:{report:7}"), bulk(b"1")),
    "garbage": b"?what\r\n",
    "bad-length": b"$5\r\nab\r\n",
    "pipeline": b"+OK\r\n" + num(30000) + b"$-1\r\n" + arr(bulk(b"0"), arr()) + b"-NOSCRIPT No matching script\r\n",
}
ACK = {k: arr(bulk(k.encode()), bulk(b"ch0"), num(1)) for k in ("subscribe", "psubscribe", "ssubscribe")}


def resp_seeds():
    # Mode 0: the reader, whole (seed byte 0), in 1..2^k byte pieces, and byte by byte (8).
    for i, (name, data) in enumerate(sorted(REPLIES.items())):
        write("fuzz_resp", "reader-" + name, bytes([0, [0, 1, 2, 3, 5, 8, 0x21, 0x47][i % 8]]) + data)
    # Mode 1: flags (1 AUTH, 2 user, 4 SELECT, 8 READONLY, 0x10 read-only, 0x20 server closes, 0x40 follow-ups,
    # 0x80 push handler), commands before connecting, chunk seed, op seed, then what the server says.
    conn = {
        "plain": (0x00, 3, b"+PONG\r\n" + arr(bulk(owner()), bulk(b"1")) + b"+OK\r\n"),
        "auth-select": (0x05, 2, b"+OK\r\n+OK\r\n+PONG\r\n" + num(-2)),
        "auth-wrongpass": (0x03, 2, b"-WRONGPASS invalid username-password pair or user is disabled.\r\n"),
        "select-out-of-range": (0x04, 1, b"-ERR DB index is out of range\r\n"),
        "loading": (0x01, 1, b"-LOADING Redis is loading the dataset in memory\r\n"),
        "readonly-replica": (0x18, 4, b"+OK\r\n+PONG\r\n$-1\r\n" + num(1)),
        "noscript": (0x40, 4, b"-NOSCRIPT No matching script. Please use EVAL.\r\n" * 3 + num(1) * 8),
        "extra-reply": (0x00, 1, b"+PONG\r\n+OK\r\n+OK\r\n"),
        "closes-midway": (0x20, 3, b"+PONG\r\n*2\r\n$40\r\n6e3d"),
        "garbage": (0x60, 3, b"+PONG\r\n?what\r\n"),
        "push-handler": (0x80, 0, REPLIES["message"] + REPLIES["smessage"]),
        "cluster-shards": (0x00, 5, REPLIES["cluster-shards"] * 2 + REPLIES["cluster-slots"] * 3),
    }
    for i, (name, (flags, initial, data)) in enumerate(sorted(conn.items())):
        write("fuzz_resp", "conn-" + name, bytes([1, flags, initial, [0, 3, 6, 1][i % 4], 0x50 + i]) + data)
    # Mode 2: flags (1 AUTH, 2 user, 4 SELECT, 0x20 server closes), subscriptions, chunk seed, op seed.
    sub = {
        "acks-and-messages": (0x00, ACK["subscribe"] + ACK["psubscribe"] + ACK["ssubscribe"] + REPLIES["message"]
                              + REPLIES["pmessage"] + REPLIES["smessage"]),
        "auth-then-ack": (0x01, b"+OK\r\n" + ACK["subscribe"] + REPLIES["message"]),
        "denied": (0x00, b"-NOPERM this user has no permissions to access one of the channels\r\n" * 2),
        "shard-moved": (0x20, ACK["ssubscribe"] + arr(bulk(b"sunsubscribe"), bulk(b"ch0"), num(0))),
        "pong": (0x00, b"+PONG\r\n" + arr(bulk(b"pong"), bulk(b""))),
        "unsubscribe": (0x00, ACK["subscribe"] + arr(bulk(b"unsubscribe"), bulk(b"ch0"), num(0))
                        + arr(bulk(b"punsubscribe"), bulk(b"ch1"), num(0))),
    }
    for i, (name, (flags, data)) in enumerate(sorted(sub.items())):
        write("fuzz_resp", "sub-" + name, bytes([2, flags, i, [0, 2, 5][i % 3], 0x30 + i]) + data)
    # What the fuzzer found (docs/fuzzing.md), kept so that every run checks them first.
    write("fuzz_resp", "regress-huge-array-header", b"\x00\x00*300000000\r\n")
    write("fuzz_resp", "regress-slots-node-not-array", b"\x00\x00" + arr(arr(num(0), num(1), num(5))))
    write("fuzz_resp", "regress-slot-range", b"\x00\x05" + REPLIES["cluster-slots"].replace(b":5460", b":54600"))


# ---- classifier ----------------------------------------------------------------------------------------------
def piece(b):
    if len(b) < 255:
        return bytes([len(b)]) + b
    return b"\xff" + bytes([len(b) >> 8, len(b) & 0xff]) + b


def u32(n):
    return (n & 0xffffffff).to_bytes(4, "little")


def owner_shape(kind, token=b"731", client=0):
    """An owner-ish value as fuzz_classifier's ownerish() reads it; kind: raw, owner, write, tx (fixed txid)."""
    shape = {"raw": 0, "owner": 1, "write": 2, "tx": 3}[kind] | (client << 2) | 0x80
    return bytes([shape]) + piece(token)


def field(kind, token=b"731", client=0):
    return b"\x01" + owner_shape(kind, token, client)  # a selector byte that is not a multiple of 5: not "mode"


def snapshot(name, type_index=0, flags=0, ttl=30, fields=(), queue=(), readers=(), subs=(0xff, 0xff), now=0):
    ttl_sel = {"absent": 0, "none": 1}.get(ttl, 2)
    data = piece(name) + bytes([type_index, flags | (ttl_sel << 3)]) + bytes([0 if ttl_sel < 2 else ttl])
    data += (0).to_bytes(8, "little") + bytes(subs) + u32(now) + u32(123456)
    data += bytes([len(fields)]) + b"".join(f + piece(v) for f, v in fields)
    data += bytes([len(queue)]) + b"".join(m + (b"\x01" + u32(d) if d is not None else b"\x00") for m, d in queue)
    data += bytes([len(readers)]) + b"".join(m + bytes([live]) for m, live in readers)
    return data


MODE = b"\x00"  # selector 0: the field is "mode"


def classifier_seeds():
    seeds = {
        "rlock": snapshot(b"orders:42", fields=[(field("owner"), b"1")]),
        "rlock-reentered": snapshot(b"orders:42", ttl=21, fields=[(field("owner", b"88", 1), b"2")]),
        "non-java-token": snapshot(b"jobs:nightly", fields=[(field("owner", UUID[1]), b"1")]),
        "transactional": snapshot(b"tx:lock", fields=[(field("tx", b"731"), b"1")]),
        "fenced": snapshot(b"orders:42", flags=0x04, fields=[(field("owner"), b"1")]),
        "fair-queue": snapshot(b"payroll", fields=[(field("owner"), b"1")],
                               queue=[(owner_shape("owner", b"12", 1), 300000), (owner_shape("owner", b"13", 2), 600000)]),
        "fair-jammed": snapshot(b"payroll", fields=[(field("owner"), b"1")],
                                queue=[(owner_shape("owner", b"12", 1), -1000)], now=5000),
        "rw-read": snapshot(b"report:7", fields=[(MODE, b"read"), (field("owner", b"1"), b"2"),
                                                 (field("owner", b"2", 1), b"1")],
                            readers=[(owner_shape("owner", b"1"), 2), (owner_shape("owner", b"2", 1), 0)]),
        "rw-write": snapshot(b"report:7", fields=[(MODE, b"write"), (field("write", b"1"), b"1"),
                                                  (field("owner", b"1"), b"1")]),
        "rw-corrupt": snapshot(b"report:7", fields=[(MODE, b"write"), (field("owner", b"1"), b"1")]),
        "look-alike-user-hash": snapshot(b"sessions", ttl="none", fields=[(field("owner", b"1"), b"5"),
                                                                         (field("owner", b"2", 1), b"9")]),
        "declared-string": snapshot(b"orders:42", type_index=4, flags=0x02),
        "declared-malformed": snapshot(b"orders:42", flags=0x02, fields=[(field("owner"), b"abc")]),
        "no-ttl": snapshot(b"orders:42", flags=0x02, ttl="none", fields=[(field("owner"), b"1")]),
        "mixed-fleet": snapshot(b"orders:42", fields=[(field("owner"), b"1")], subs=(2, 3)),
        "binary-name": snapshot(b"lock\x00\xff\xfe\x1b[2J", fields=[(field("owner"), b"1")]),
        "braced-name": snapshot(b"a{b", fields=[(field("owner"), b"1")]),
        "long-name": snapshot(b"orders:" + b"x" * 300, fields=[(field("owner"), b"1")]),
        "utf8-name": snapshot("锁:订单".encode(), fields=[(field("owner"), b"1")]),
        "not-a-hash": snapshot(b"counter", type_index=6),
        "user-hash": snapshot(b"profile", fields=[(field("raw", b"name"), b"ada")]),
    }
    for name, data in seeds.items():
        write("fuzz_classifier", name, data)
    # What the fuzzer found, as it found it (docs/fuzzing.md).
    write("fuzz_classifier", "regress-hashtag-name", b"s{\x00}")
    write("fuzz_classifier", "regress-c1-control",
          bytes.fromhex("7b7b827b31f900007bc8d4c8c2c2c282"))


# ---- replies to the code that acts on them (fuzz_replies) ---------------------------------------------------------
def replies_seeds():
    t = "fuzz_replies"
    token = b"8f14e45f-ceea-467f-a9f3-0cd9a1b2c3d4"
    # Mode 0: script answers as each layout's scripts give them (acquired, the holder's PTTL, a fencing token, a
    # string lock's holder and TTL, released / still held / not held, force release's 1, 0, -1 and the holders now,
    # and the reads behind inspect: HGETALL, a sorted set WITHSCORES, a string's token).
    decoders = {
        "acquired": b"$-1\r\n" + num(30000) + arr(num(17)) + num(1) + arr(bulk(token), num(2500)),
        "released": num(1) + num(0) + b"$-1\r\n" + bulk(token) + num(-1) + arr(bulk(owner(1)), bulk(owner(2))),
        "inspect-hash": arr(bulk(owner()), bulk(b"2"), bulk(b"mode"), bulk(b"read"), bulk(owner(1, b"9")), bulk(b"1")),
        "inspect-zset": arr(bulk(token), bulk(b"1700000030000"), bulk(b"__write__"), bulk(b"1700000030000")),
        "odd-shapes": arr(bulk(b"mode")) + b"+OK\r\n" + b"-LOCKKIND hash string\r\n" + arr() + arr(arr(num(1))),
    }
    for name, data in decoders.items():
        write(t, "decode-" + name, b"\x00" + data)
    # Mode 1: name, owner, facts (1 queue, 2 deadlines, 4 token), type and mode for decide(), then the probe's five
    # replies: TYPE, HGET mode, EXISTS queue, EXISTS deadlines, EXISTS token.
    probes = {
        "reentrant": (b"orders:42", owner(), 0, b"hash", b"", b"+hash\r\n$-1\r\n" + num(0) * 3),
        "read": (b"report:7", owner(), 0, b"hash", b"read", b"+hash\r\n" + bulk(b"read") + num(0) * 3),
        "write": (b"report:7", owner() + b":write", 0, b"hash", b"write", b"+hash\r\n" + bulk(b"write") + num(0) * 3),
        "fair": (b"payroll", b"", 3, b"hash", b"", b"+hash\r\n$-1\r\n" + num(1) + num(1) + num(0)),
        "fenced": (b"orders:42", b"", 4, b"none", b"", b"+none\r\n$-1\r\n" + num(0) + num(0) + num(1)),
        "string": (b"session:abc", b"", 0, b"string", b"",
                   b"+string\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n" + num(0) * 3),
        "zset": (b"leaderboard", b"", 0, b"zset", b"", b"+zset\r\n-WRONGTYPE Operation against a key\r\n" + num(0) * 3),
        "lost": (b"orders:42", owner(), 0, b"hash", b"", b"+hash\r\n"),
    }
    for name, (lock, who, facts, kind, mode, data) in probes.items():
        write(t, "probe-" + name, b"\x01" + piece(lock) + piece(who) + bytes([facts]) + piece(kind) + piece(mode) + data)
    # Mode 2: flags (1 typed walks, 2 shard waiters, 4 a pattern follows, 8 the default string patterns, else a list
    # follows), SCAN COUNT - 1, then what the server answers: a SCAN page, TYPE of each key, the reads of each.
    page = arr(bulk(b"0"), arr(bulk(b"orders:42"), bulk(b"lock:job"), bulk(b"user:1")))
    reads = (b"+hash\r\n+string\r\n+hash\r\n"
             + arr(bulk(b"0"), arr(bulk(owner()), bulk(b"1"))) + num(25000)
             + bulk(token) + num(9000)
             + arr(bulk(b"0"), arr(bulk(b"name"), bulk(b"ann"))) + num(-1)
             + num(0) * 6 + arr(bulk(b"redisson_lock__channel:{orders:42}"), num(2)))
    write(t, "scan-default", b"\x02\x08\xff" + page + reads)
    write(t, "scan-typed", b"\x02\x09\x0f" + page + reads)
    write(t, "scan-pattern", b"\x02\x0e\x63" + piece(b"orders:*") + page + reads)
    write(t, "scan-string-globs", b"\x02\x02\x63" + piece(b"lock:* redlock=jobs:* mutex:*") + page + reads)
    write(t, "scan-two-pages", b"\x02\x08\x00" + arr(bulk(b"17"), arr(bulk(b"a"))) + b"+hash\r\n"
          + arr(bulk(b"0"), arr(bulk(b"b"))) + b"+zset\r\n" + reads)
    write(t, "scan-not-a-page", b"\x02\x08\x00" + arr(bulk(b"0")) + b"-ERR unknown command 'SCAN'\r\n")
    # Mode 3: the same flags, then named keys (show NAME), then the replies.
    write(t, "keys-lock", b"\x03\x08\x00\x02" + piece(b"orders:42") + piece(b"redisson_lock_queue:{payroll}")
          + b"+hash\r\n+list\r\n" + arr(bulk(b"0"), arr(bulk(owner()), bulk(b"1"))) + num(25000) + num(1)
          + arr(bulk(owner(1, b"12"))) + arr(bulk(owner(1, b"12")), bulk(b"1700000000000")))
    write(t, "keys-string", b"\x03\x08\x00\x01" + piece(b"lock:job") + b"+string\r\n" + bulk(token) + num(9000))
    # Mode 4: flags (1 a master name follows, 2 two sentinels, 8 then watch for +switch-master), the answer to
    # GET-MASTER-ADDR-BY-NAME, then what the watch connection hears.
    switch = arr(bulk(b"subscribe"), bulk(b"+switch-master"), num(1)) + arr(
        bulk(b"message"), bulk(b"+switch-master"), bulk(b"mymaster 127.0.0.1 6379 127.0.0.1 6380"))
    write(t, "sentinel-found", b"\x04\x08" + piece(arr(bulk(b"127.0.0.1"), bulk(b"6380"))) + switch)
    write(t, "sentinel-unknown", b"\x04\x02" + piece(b"*-1\r\n"))
    write(t, "sentinel-named", b"\x04\x09" + piece(b"orders") + piece(arr(bulk(b"10.0.0.5"), bulk(b"7000")))
          + switch.replace(b"mymaster", b"orders  "))
    write(t, "sentinel-error", b"\x04\x00" + piece(b"-NOAUTH Authentication required.\r\n"))
    write(t, "sentinel-nonsense", b"\x04\x00" + piece(arr(bulk(b""), bulk(b"70000"))))
    # Mode 5: the WAIT after a write. Flags (1 no timeout, 2 undo unsynced, bits 2-3 the path: 0 a write, 1 an
    # acquire, 2 a release; bits 4-5 one to three writes; bits 6-7 the release's outcome), the timeout's byte (without
    # flag 1), the undo's answer (its outcome; 0x80 failed), then INFO replication, WAIT and INFO again.
    info = bulk(b"# Replication\r\nrole:master\r\nconnected_slaves:1\r\n"
                b"slave0:ip=127.0.0.1,port=7001,state=online,offset=42,lag=0\r\n")
    info_none = bulk(b"# Replication\r\nrole:master\r\nconnected_slaves:0\r\n")
    info_syncing = bulk(b"# Replication\r\nrole:master\r\nconnected_slaves:2\r\n"
                        b"slave0:ip=127.0.0.1,port=7001,state=wait_bgsave,offset=0,lag=0\r\n"
                        b"slave1:ip=127.0.0.1,port=7002,state=online,offset=42,lag=1\r\n")
    waits = {
        "acked": (0x00, info + num(1)),
        "error": (0x00, info + b"-NOPERM this user has no permissions to run the 'wait' command\r\n"),
        "not-a-count": (0x00, info + b"+OK\r\n"),
        "no-replicas": (0x00, info_none),
        "syncing": (0x00, info_syncing + num(1)),
        "acquire-undone": (0x06, info + num(0) + info),
        "acquire-gone": (0x06, info + num(0) + info_none),
        "acquire-undo-failed": (0x06, info + num(0) + info),
        "release": (0x08, info + num(1)),
        "three-writes": (0x24, info + num(1) + num(0) + info + num(1)),
        "info-denied": (0x04, b"-NOPERM this user has no permissions to run the 'info' command\r\n"),
    }
    for name, (flags, data) in waits.items():
        undo = b"\x80" if name == "acquire-undo-failed" else b"\x00"
        write(t, "wait-" + name, b"\x05" + bytes([flags]) + (b"" if flags & 1 else b"\x64") + undo + data)
    write(t, "wait-off", b"\x05\x01\x00")
    # Mode 6: the publish mode's probe. Flags (bits 0-1 the mode asked: auto, plain, sharded, both; bits 2-3 the
    # topology: auto, standalone, cluster; 0x10 a second release waits), the chunks' seed, then what the server
    # answers: COMMAND INFO SPUBLISH and PUBSUB SHARDNUMSUB, or INFO cluster, the slot map and SHARDNUMSUB (a map's
    # port 7000 is the loopback peer's).
    spublish = arr(arr(bulk(b"spublish"), num(3), arr(b"+pubsub\r\n", b"+loading\r\n", b"+stale\r\n"), num(1),
                       num(1), num(1)))
    unknown = b"-ERR unknown subcommand 'SHARDNUMSUB'. Try PUBSUB HELP.\r\n"
    shards = arr(arr(bulk(b"slots"), arr(num(0), num(16383)), bulk(b"nodes"), arr(NODE7000)))
    publishes = {
        "sharded-redis7": (0x06, spublish + arr()),
        "sharded-redis6": (0x16, arr(b"$-1\r\n") + unknown),
        "both-redis6": (0x07, arr(b"$-1\r\n") + unknown),
        "both-denied": (0x07, b"-NOPERM no permissions to run the 'command|info' command\r\n" * 2),
        "auto-standalone": (0x00, bulk(b"# Cluster\r\ncluster_enabled:0\r\n")),
        "auto-cluster": (0x10, bulk(b"# Cluster\r\ncluster_enabled:1\r\n") + shards + arr()),
        "auto-cluster-redis6": (0x00, bulk(b"# Cluster\r\ncluster_enabled:1\r\n") + shards + unknown),
        "cluster-topology": (0x0b, shards + spublish + arr()),
    }
    for i, (name, (flags, data)) in enumerate(publishes.items()):
        write(t, "publish-" + name, b"\x06" + bytes([flags, [0, 3, 6][i % 3]]) + data)
    # Mode 7: the monitor's polls. Flags (1 sharded publishing: SHARDNUMSUB too; 2 only the locks marked watched),
    # our own shard listeners, the chunks' seed, the number of locks - 1, each a name and a shape (kind 1 + shape %
    # 12: 0 reentrant, 1 fair, 2 read-write, 5 string; 0x80 it has a holder, 0x40 watched), then per lock with a
    # holder the PTTL, PUBSUB NUMSUB and SHARDNUMSUB answers.
    def numsub(channel, n):
        return arr(bulk(channel), num(n))
    ch = b"redisson_lock__channel:{orders:42}"
    polls = {
        "one-lock": (0x00, 0, [(b"orders:42", 0x80)], num(25000) + numsub(ch, 2)),
        "sharded": (0x01, 1, [(b"orders:42", 0x80)], num(25000) + numsub(ch, 1) + numsub(ch, 3)),
        "no-ttl": (0x00, 0, [(b"orders:42", 0x80)], num(-1) + numsub(ch, 0)),
        "negative": (0x01, 2, [(b"orders:42", 0x80)], num(-2) + numsub(ch, -5) + numsub(ch, 1)),
        "huge": (0x00, 0, [(b"orders:42", 0x80)], num(9223372036854775807) + numsub(ch, 4294967297)),
        "odd-shapes": (0x01, 0, [(b"orders:42", 0x80)], bulk(b"25000") + arr(bulk(ch)) + b"+OK\r\n"),
        "denied": (0x01, 0, [(b"orders:42", 0x80)], b"-NOPERM no permissions to run the 'pubsub' command\r\n" * 3),
        "string": (0x00, 0, [(b"lock:job", 0x85)], num(9000)),
        "watched": (0x02, 0, [(b"orders:42", 0xc0), (b"report:7", 0x82)], num(25000) + numsub(ch, 1)),
        "mixed": (0x01, 0, [(b"orders:42", 0x80), (b"report:7", 0x82), (b"payroll", 0x81), (b"gone", 0x00)],
                  (num(25000) + numsub(ch, 1) + numsub(ch, 0)) * 3),
    }
    for i, (name, (flags, own, locks, data)) in enumerate(polls.items()):
        head = bytes([flags, own, [0, 3, 6][i % 3], len(locks) - 1])
        write(t, "poll-" + name, b"\x07" + head + b"".join(piece(n) + bytes([shape]) for n, shape in locks) + data)
    # Mode 8: the monitor's reads by name. Flags (1 typed walks, 2 shard waiters), the number of names - 1, the names,
    # then the replies (as mode 3's).
    write(t, "reads-lock", b"\x08\x00\x01" + piece(b"orders:42") + piece(b"redisson_lock_queue:{payroll}")
          + b"+hash\r\n+list\r\n" + arr(bulk(b"0"), arr(bulk(owner()), bulk(b"1"))) + num(25000) + num(1)
          + arr(bulk(owner(1, b"12"))) + arr(bulk(owner(1, b"12")), bulk(b"1700000000000")))
    write(t, "reads-twice", b"\x08\x00\x02" + piece(b"lock:job") * 2 + piece(b"orders:42") + b"+string\r\n+hash\r\n"
          + bulk(token) + num(9000) + arr(bulk(b"0"), arr(bulk(owner()), bulk(b"1"))) + num(25000))
    write(t, "reads-lost", b"\x08\x02\x00" + piece(b"orders:42") + b"+hash\r\n")
    # Mode 9: MONITOR lines. Flag 1: a client and arguments (count - 1, then each) quoted here as Redis quotes them;
    # else the lines as the server sends them.
    lines = (b'1700000000.123456 [0 127.0.0.1:5555] "EVAL" "if (redis.call(\'exists\', KEYS[1]) == 0) then '
             b'redis.call(\'hincrby\', KEYS[1], ARGV[2], 1); return nil; end;" "1" "guided:orders" "30000" '
             b'"6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1"\n'
             b'1700000000.123470 [0 lua] "exists" "guided:orders"\n'
             b'1700000000.123480 [0 lua] "hincrby" "guided:orders" "6e3d30b7:1" "1"\n'
             b'1700000000.123490 [0 127.0.0.1:5556] "ECHO" "lockscope-guide-sync-7"\n'
             b'1700000000.1235 [0 unix:/tmp/redis.sock] "SET" "k\\x00\\xe2\\x82\\xac" "a\\\"b\\\\c\\n\\r\\t\\a\\b"\n'
             b'1700000000.1236 [0 127.0.0.1:5555] "GET" "unterminated\n'
             b'1700000000.1237 [0 127.0.0.1:5555] "X" "\\x4"\n'
             b'OK\n')
    write(t, "monitor-lines", b"\x09\x00" + lines)
    write(t, "monitor-quoted", b"\x09\x01" + piece(b"127.0.0.1:5555") + b"\x02" + piece(b"EVAL")
          + piece(b"return \"x\\\n\x00\xff\x7f\"") + piece(b""))
    # The trace reads the same lines (flag 2: a cluster node's; flags >> 1: how many identities it keeps): Redisson's
    # acquire and batched renewal, string locks' SET NX polls and one-key release, an IPv6 client, a script's calls.
    trace = (b'1700000000.100000 [0 127.0.0.1:5555] "EVAL" "return nil" "1" "orders:42" "30000" "' + owner() + b'"\n'
             b'1700000000.200000 [0 127.0.0.1:5556] "EVAL" "return nil" "1" "orders:42" "30000" "' + owner() + b'"\n'
             b'1700000000.300000 [0 127.0.0.1:5555] "evalsha" "abc" "2" "a" "b" "30000" "' + owner(0, b"1") + b'" "'
             + owner(1, b"2") + b'"\n'
             b'1700000000.400000 [0 [::1]:6000] "set" "lock:a" "tok\\x00" "px" "8000" "nx"\n'
             b'1700000000.500000 [0 [::1]:6000] "SET" "lock:a" "tok\\x00" "NX" "PX" "8000"\n'
             b'1700000000.600000 [0 lua] "set" "lock:a" "x" "NX"\n'
             b'1700000000.700000 [0 127.0.0.1:5557] "EVAL" "del" "1" "lock:a" "tok\\x00" "8000" "tok\\x00"\n'
             b'1700000000.800000 [0 127.0.0.1:5557] "SETNX" "lock:b" "t"\n'
             b'1700000000.900000 [0 127.0.0.1:5557] "EVAL" "x" "99" "a"\n')
    write(t, "monitor-trace", b"\x09\x02" + trace)
    clients = (b"id=3 addr=10.0.3.17:53422 laddr=10.0.3.2:6379 fd=8 name=orders-service-7 age=12 idle=0 flags=N db=0 "
               b"sub=0 psub=0 ssub=0 multi=-1 cmd=evalsha user=default redir=-1 resp=2 lib-name=redis-py lib-ver=5.0.1\n"
               b"id=4 addr=[::1]:6000 name= age=1 idle=1 flags=O cmd=monitor\r\n"
               b"addr=1.2.3.4:5 name=no-id\nid=x addr=1.1.1.1:1\nfuture=1 id=9 addr=unix:/run/r.sock:0\n")
    write(t, "monitor-client-list", b"\x09\x1e" + clients)


# ---- other Redis GUIs' connection files (fuzz_import) -------------------------------------------------------------
def import_seeds():
    samples = os.path.join(HERE, "..", "..", "ui", "tests", "data", "import")
    # Mode byte: 0 as a file (the content decides), 1 RESP.app, 2 Another RDM, 3 Tiny RDM, 4 a URL list, 5 the bytes
    # in a zip made by the target (0x08 deflated, 0x10 under another entry name) and as base64, 6 the size caps.
    reader = {"respapp": 1, "ardm": 2, "tinyrdm": 3, "urls": 4}
    for name in sorted(os.listdir(samples)):
        with open(os.path.join(samples, name), "rb") as f:
            data = f.read()
        write("fuzz_import", "file-" + name, b"\x00" + data)
        mode = reader[name.split("-")[0].split(".")[0]]
        if not name.endswith(".zip"):
            write("fuzz_import", "reader-" + name, bytes([mode]) + data)
        if name.endswith(".yaml"):
            write("fuzz_import", "zip-" + name, b"\x0d" + data)
        if name.startswith("respapp") or name == "ardm-more.ano":
            # ARDM's export form: the JSON here, base64 made by the target.
            plain = data if name.startswith("respapp") else base64.b64decode(data)
            write("fuzz_import", "base64-" + name, b"\x05" + plain)
    write("fuzz_import", "zip-other-entry", b"\x15- name: a\n  addr: h\n")
    write("fuzz_import", "nested-groups", b"\x01" + b'[{"type":"group","name":"g","connections":' * 4 + b"[]" + b"}]" * 4)
    write("fuzz_import", "yaml-anchors", b"\x03- &a {name: x, addr: h, port: 1}\n- *a\n- {<<: *a, name: y}\n")
    write("fuzz_import", "urls-odd", b"\x04# c\nname redis://u:p@h:1/2\nrediss://[::1]\nbad line\n\nredis://h:99999\n")
    # Mode 6: the size caps. 0x06 a file, 0x0d a zip's connections.yaml; two bytes (little-endian, signed) say how
    # far from the cap (16 MiB a file, 64 MiB an entry) the input is made to be, then its first bytes.
    json = b'[{"name":"prod","host":"10.0.0.5","port":6379,"auth":"secret"}]'
    yaml = b"- name: prod\n  addr: 10.0.0.5\n  port: 6379\n"
    for name, mode, offset, data in (("file-at-cap", 0x06, 0, json), ("file-over-cap", 0x06, 1, json),
                                     ("file-under-cap", 0x06, -1, b"redis://10.0.0.5:6379/0\n"),
                                     ("file-far-over-cap", 0x06, 32767, yaml),
                                     ("zip-at-cap", 0x0d, 0, yaml), ("zip-over-cap", 0x0d, 1, yaml),
                                     ("zip-under-cap", 0x0d, -1, yaml)):
        write("fuzz_import", "cap-" + name, bytes([mode]) + (offset & 0xffff).to_bytes(2, "little") + data)


# ---- URLs and command lines ----------------------------------------------------------------------------------
URLS = [
    "redis://127.0.0.1:6379/0", "redis://localhost", "rediss://redis.example.com:6380/2",
    "redis://user:p%40ss@10.0.0.5:7000/15", "redis://:onlypassword@host/1", "redis://default:secret@[::1]:6379/0",
    "rediss://lockscope-monitor:pw@redis.internal", "redis://user%3Aname:pa%3Ass%2F@host", "redis://host:0",
    "redis://host:65536", "redis://host/-1", "redis://host/abc", "http://host", "redis://", "redis://h%C3%A9st/",
    "redis://host:6379/0?timeout=5#x", "redis://xn--bcher-kva.example/", "  redis://host  ", "REDIS://HOST:1/2",
    "redis://user@host/3", "redis://us er:pw@host", "10.0.0.1:26379,10.0.0.2:26379", "host", "a:0,:1",
    "auto", "plain", "sharded", "both",
]
LINES = {
    "list": "list --pattern orders:* --url redis://127.0.0.1:6379/0",
    "show": "show orders:42 --json",
    "watch": "watch --json --interval 1000 --enable-keyspace-events",
    "lock": "lock orders:42 --lease 10000 --wait 5000 --hold 2000",
    "lock-read": "lock report:7 --kind read",
    "lock-fenced": "lock orders:42 --kind fenced --hold 0 --json",
    "release": "release orders:42 --owner 6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731",
    "force-release": "force-release orders:42 --expect-owner 6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731 --yes",
    "repair-queue": "repair-queue payroll --dry-run",
    "demo": "demo --clients 3 --locks 2",
    "sentinel": "--sentinel 10.0.0.1:26379,10.0.0.2:26379 --master mymaster watch",
    "tls": "list --url rediss://h:6380 --tls-ca /ca.pem --tls-cert c.pem --tls-key k.pem --tls-server-name r --tls-insecure",
    "tls-without-rediss": "list --tls-ca /ca.pem",
    "cluster": "lock x --publish-mode both --cluster --replica-reads",
    "password-env": "list --password-env FUZZ_REDIS_PASSWORD --url redis://user@host/3",
    "password-env-unset": "list --password-env NOT_SET_ANYWHERE",
    "password-stdin": "list --password-stdin",
    "options-first": "--json list",
    "help": "--help",
    "version": "--version",
    "read-only": "list --read-only --connect-timeout 100",
    "no-name": "lock",
    "sentinel-alone": "watch --sentinel h:1",
    "sentinel-and-cluster": "watch --sentinel h:1 --master m --cluster",
    "bad-publish-mode": "lock x --publish-mode loud",
    "unknown-command": "frobnicate x",
    "equals-form": "list --url=redis://host:1/2 --pattern=*",
    "unknown-option": "list --frobnicate",
    "binary-name": "show lock\x01\x7f\u00e9",
}


def text_seeds():
    for i, url in enumerate(URLS):
        write("fuzz_url", "url-%02d" % i, url.encode())
    write("fuzz_url", "regress-space-in-user", b" redis://%20d@h")
    for name, line in LINES.items():
        write("fuzz_cli", name, "\n".join(line.split(" ")).encode())


# ---- reap policies and approvals ---------------------------------------------------------------------------------
POLICIES = {
    "policy-full": b"""name: nightly
max_per_run: 20
protect: ["billing:*", "payments:settlement"]
unattended: false
every: 5m
rules:
  - name: dead-redisson-holders
    pattern: "orders:*"
    library: redisson
    kind: [reentrant, fair]
    verdict_for: 10m
    min_age: 30m
    max_per_run: 5
  - name: crashed-imports
    pattern: "lock:import:*"
    kind: string
    ttl: none
    connection_gone: true
    min_age: 2h
""",
    "policy-one-signal": b"rules:\n  - pattern: x\n    min_age: 1h\n",
    "policy-unknown-key": b"rules:\n  - min_age: 1h\n    verdict_for: 1m\n    older_than: 2h\n",
    "policy-not-yaml": b"rules: [\n",
}
# A dry run's own output (lockscope-cli reap --dry-run --json), its hash as the reaper computes it.
REPORT = b'{"action":"release","age_at_least":false,"age_ms":967411125,"count":1,"evidence":["held 268 h 43 min (min_age 1 min 0 s)","likely dead for 0.0 s without a break (verdict_for 0.0 s)","no lease: the key never expires, and nothing renews it","its connection is not known (a trace would name it: lockscope-cli trace)","process 4194999 on this host (vm) is gone","its heartbeat lock:hb:run7 is stale: last written 1 h 0 min ago"],"kind":"string","library":"custom","liveness":"likely dead (its process is gone, heartbeat stale)","name":"lock:import","owner":"ADDED:run7@vm,1795000000,pid=4194999","rule":"dead-imports","ttl_ms":-1}\n{"dry_run":true,"observed_ms":0,"over_quota":0,"policy":"nightly","policy_sha256":"57a155499f9d469868e70609bb66888e13f39af622a115cbb3078d21448fb034","protected":0,"report_sha256":"f38068a7378ac09893453ae93310037a34aa8502d88cab337e4c662aeb2fe4c4","server":"redis://127.0.0.1:49463/0","to_release":1}\n'


def reap_seeds():
    for name, text in POLICIES.items():
        write("fuzz_reap", name, b"\x00" + text)
    write("fuzz_reap", "approval-report", b"\x01" + REPORT)
    write("fuzz_reap", "approval-altered", b"\x01" + REPORT.replace(b'"count":1', b'"count":2', 1))


if __name__ == "__main__":
    resp_seeds()
    classifier_seeds()
    text_seeds()
    replies_seeds()
    import_seeds()
    reap_seeds()
    sys.exit(0)
