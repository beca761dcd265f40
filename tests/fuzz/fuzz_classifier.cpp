// Arbitrary key contents into classify() (docs/protocol/classification.md), and the lock-name helpers on the same
// names and owners: aux key and channel names (locknames.h) mapped back by LockNameMap, owner splitting, and
// escapeBytes.
// Input: length-prefixed pieces (fuzzinput.h) for the name, type, TTL, fields, fair queue and reader timeouts;
// owner-shaped fields are built from a few real client ids so that the fuzzer reaches the lock rules quickly.
#include "fuzzinput.h"
#include "kinds/fair/fairlayout.h"
#include "kinds/fenced/fencedlayout.h"
#include "kinds/lockclassifier.h"
#include "kinds/locklayouts.h"
#include "kinds/locknamemap.h"
#include "kinds/locknames.h"
#include "kinds/readwrite/readwritelayout.h"
#include "redis/bytesformat.h"
#include "redis/slotmap.h"

#include <QCoreApplication>

using namespace LockScope;
using namespace LockScope::Fuzz;

namespace {
const QByteArray kClients[] = { "6e3d30b7-83b1-433a-9335-5e8b9916d3ac", "0b5e4a0e-2f55-4c1a-9d7e-3a1f8c2b6d90",
    "ffffffff-ffff-4fff-bfff-ffffffffffff" };
const QByteArray kTxid = "0123456789abcdef0123456789abcdef";

QByteArray ownerish(FuzzInput &in)
{
    const quint8 shape = in.byte();
    const QByteArray client = (shape >> 2) % 4 < 3 ? kClients[(shape >> 2) % 4] : in.piece();
    switch (shape % 4) {
    case 0:
        return in.piece();
    case 1:
        return client + ':' + in.piece();
    case 2:
        return client + ':' + in.piece() + ":write";
    default:
        return client + ':' + in.piece() + ':' + (shape & 0x80 ? kTxid : in.piece());
    }
}

KeySnapshot readSnapshot(FuzzInput &in)
{
    KeySnapshot key;
    // The other libraries' fixed prefixes and suffix, so that their layouts are reached too.
    static const QByteArray prefixes[] = { "", "", "semaphore:", "uniquejobs:", "lock:", "job-lock:default:" };
    const quint8 naming = in.byte();
    key.name = prefixes[naming % 6] + in.piece() + (naming & 0x80 ? ":LOCKED" : "");
    static const QByteArray types[] = { "hash", "hash", "hash", "hash", "string", "none", "zset" };
    const quint8 type = in.byte() % 8;
    key.type = type < 7 ? types[type] : in.piece();
    const quint8 flags = in.byte();
    key.partial = flags & 0x01;
    key.declared = flags & 0x02;
    key.aux.get<FencedAux>().tokenKeyExists = flags & 0x04;
    const qint64 ttls[] = { -2, -1, qint64(in.byte()) * 1000, in.i64() };
    key.pttlMs = ttls[(flags >> 3) % 4];
    key.channelSubscribers = qint8(in.byte());
    key.shardSubscribers = qint8(in.byte());
    key.nowMs = 1700000000000LL + qint32(in.u32());
    key.monoMs = in.u32();
    for (int n = in.byte() % 16; n > 0; --n) {
        const QByteArray field = in.byte() % 5 == 0 ? QByteArray("mode") : ownerish(in);
        key.fields.append({ field, in.piece() });
    }
    for (int n = in.byte() % 6; n > 0; --n) {
        const QByteArray member = ownerish(in);
        key.aux.get<FairQueueAux>().queue << member;
        if (in.flag())
            key.aux.get<FairQueueAux>().deadlines.insert(member, key.nowMs + qint32(in.u32()));
    }
    for (int n = in.byte() % 4; n > 0; --n)
        key.aux.get<ReaderTimeoutsAux>().live.insert(ownerish(in), in.byte() % 3);
    // What the other layouts read: a declared library, a string's value, a sorted set's members.
    static const QByteArray libraries[] = { "", "", "symfony", "redis-semaphore", "sidekiq-unique-jobs", "redisson" };
    key.library = libraries[in.byte() % 6];
    key.stringPattern = in.flag();
    key.value = in.piece();
    for (int n = in.byte() % 8; n > 0; --n) {
        const quint8 shape = in.byte();
        const QByteArray member = shape % 4 == 0
            ? kClients[shape % 3] + (shape & 0x10 ? "_" + in.piece() : QByteArray())
            : shape % 4 == 1 ? QByteArray("__write__")
                             : in.piece();
        key.members.append({ member, key.nowMs + qint32(in.u32()) });
    }
    key.memberCount = key.members.size() + in.byte() % 3;
    return key;
}

void checkClassification(const KeySnapshot &key, const LockInfo &info)
{
    FUZZ_CHECK(info.name == key.name);
    // An orphaned fair queue has no lock hash, and so no TTL of its own.
    FUZZ_CHECK(info.ttlMs == key.pttlMs || (key.type == "none" && info.ttlMs == -1));
    FUZZ_CHECK(!LockInfo::kindName(info.kind).isEmpty());
    FUZZ_CHECK(!LockInfo::confidenceName(info.confidence).isEmpty());
    if (!info.isLock())
        return;
    // Every lock names its library, its kind's layout's own (a string lock names the library its token points to).
    const LockLayout *layout = LockLayouts::forKind(info.kind);
    FUZZ_CHECK(layout || info.kind == LockInfo::Kind::Unknown);
    FUZZ_CHECK(!info.library.isEmpty());
    FUZZ_CHECK(info.kind == LockInfo::Kind::String || info.library == (layout ? layout->library() : "redisson"));
    if (info.library != "redisson" || key.type == "string") {
        // Another library's lock, or a Redisson counter: its holders are what was read, never a mode marker.
        for (const LockHolder &h : info.holders) {
            bool present = h.owner == key.value;
            for (const auto &[field, value] : key.fields)
                present = present || field == h.owner;
            for (const auto &[member, score] : key.members)
                present = present || member == h.owner;
            FUZZ_CHECK(present);
            FUZZ_CHECK(h.owner != "__write__");
        }
        FUZZ_CHECK(key.type == "string" || key.type == "zset" || key.type == "hash");
        for (const QString &text : info.evidence + info.warnings)
            FUZZ_CHECK(!text.isEmpty());
        return;
    }
    // lockclassifier.h: a lock-shaped hash that nothing beyond its shape vouches for (no aux keys, no listener, no
    // configured pattern) is shown, a stuck lock without TTL too, but only at low confidence.
    const FencedAux fenced = key.aux.find<FencedAux>() ? *key.aux.find<FencedAux>() : FencedAux {};
    const FairQueueAux fair = key.aux.find<FairQueueAux>() ? *key.aux.find<FairQueueAux>() : FairQueueAux {};
    const ReaderTimeoutsAux readers
        = key.aux.find<ReaderTimeoutsAux>() ? *key.aux.find<ReaderTimeoutsAux>() : ReaderTimeoutsAux {};
    const bool aux = fenced.tokenKeyExists || fair.exists() || key.channelSubscribers > 0 || key.shardSubscribers > 0
        || !readers.live.isEmpty();
    FUZZ_CHECK(aux || key.declared || info.confidence == LockInfo::Confidence::Low);
    // A lock is a hash with fields, or a fair queue whose hash is gone (nobody holds it).
    const bool orphanedQueue
        = key.type == "none" && info.kind == LockInfo::Kind::Fair && info.holders.isEmpty() && fair.exists();
    FUZZ_CHECK((key.type == "hash" && !key.fields.isEmpty()) || orphanedQueue);
    FUZZ_CHECK(info.kind != LockInfo::Kind::Fenced || fenced.tokenKeyExists);
    FUZZ_CHECK(info.kind != LockInfo::Kind::Fair || fair.exists());
    FUZZ_CHECK((info.kind == LockInfo::Kind::ReadWrite) == (info.mode == "read" || info.mode == "write"));
    // A lock with malformed counts is reported as it is, without the queue analysis.
    FUZZ_CHECK(info.queue.size() == fair.queue.size() || info.kind == LockInfo::Kind::Unknown || orphanedQueue);
    for (const LockHolder &h : info.holders) {
        bool present = false;
        for (const auto &[field, value] : key.fields)
            present = present || field == h.owner;
        FUZZ_CHECK(present);
        FUZZ_CHECK(h.client.size() == 36 && h.owner.startsWith(h.client + ':' + h.thread));
        // A writer's field ends in ":write", or in ":write:<txid>" for a transactional write lock.
        FUZZ_CHECK(!h.owner.endsWith(":write") || h.writer);
        FUZZ_CHECK(!h.writer || h.owner.contains(":write"));
        FUZZ_CHECK(info.kind == LockInfo::Kind::Unknown || h.count > 0);
    }
    for (const QString &text : info.evidence + info.warnings)
        FUZZ_CHECK(!text.isEmpty());
}

void checkEscaping(const QByteArray &bytes)
{
    const QString shown = escapeBytes(bytes);
    // "Printable and unambiguous": no control character gets through, and the bytes can be read back.
    for (const QChar c : shown)
        FUZZ_CHECK(c.category() != QChar::Other_Control);
    FUZZ_CHECK(referenceUnescape(shown) == bytes);
    // What the CLI takes back: a name typed as list printed it addresses those very bytes.
    FUZZ_CHECK(LockScope::unescapeBytes(shown) == bytes);
    const QString cut = escapeBytes(bytes, 40);
    FUZZ_CHECK(cut.size() <= 40 + 3 + 32); // one escape past the limit, then "…(N bytes)"
}

void checkNames(const QByteArray &name, const QByteArray &owner)
{
    using namespace LockNames;
    FUZZ_CHECK(LockNameMap::isBookkeeping(unlockLatch(name, kTxid)));
    // Every aux key and channel of a lock maps back to it, or its events would refresh some other name. Not for names
    // in Redisson's own namespace ("redisson_lock_token:..."): those read as the aux keys they look like.
    if (!name.startsWith("redisson_")) {
        FUZZ_CHECK(LockNameMap::fromKey(fairQueue(name)).contains(name));
        FUZZ_CHECK(LockNameMap::fromKey(fairTimeouts(name)).contains(name));
        FUZZ_CHECK(LockNameMap::fromKey(fencingToken(name)).contains(name));
        FUZZ_CHECK(LockNameMap::fromChannel(lockChannel(name)).contains(name));
        FUZZ_CHECK(LockNameMap::fromChannel(rwChannel(name)).contains(name));
        if (!name.contains(":rwlock_timeout:"))
            FUZZ_CHECK(LockNameMap::fromKey(name).contains(name));
        bool decimal = false;
        if (isOwnerField(owner, &decimal)) {
            FUZZ_CHECK(LockNameMap::fromChannel(fairChannel(name, owner)).contains(name));
            FUZZ_CHECK(LockNameMap::fromKey(rwTimeoutPrefix(name, owner) + ":1").contains(name));
        }
    }
    QByteArray client, token;
    if (splitOwner(owner, &client, &token))
        FUZZ_CHECK(client.size() == 36 && client + ':' + token == owner);
    keySlot(name);
    keySlot(rwKeyPrefix(name));
    FUZZ_CHECK(rwKeyPrefix(name).contains(name));
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    static int argc = 1;
    static char name[] = "fuzz_classifier";
    static char *argv[] = { name, nullptr };
    static QCoreApplication app(argc, argv); // the classifier's texts go through QCoreApplication::translate
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    const KeySnapshot key = readSnapshot(in);
    const LockInfo info = classify(key);
    checkClassification(key, info);
    checkEscaping(key.name);
    checkNames(key.name, key.fields.isEmpty() ? QByteArray() : key.fields.first().first);
    for (const auto &[field, value] : key.fields) {
        checkEscaping(field);
        bool decimal = false;
        isOwnerField(field, &decimal);
    }
    return 0;
}
