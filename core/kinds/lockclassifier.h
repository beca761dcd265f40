#pragma once

#include "kinds/auxvalues.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QStringList>

#include <memory>

namespace LockScope {

struct OwnerTemplate;

// Everything the monitor read about one key, in one pipeline: type, fields and PTTL together
// (docs/protocol/classification.md#reading-a-key).
struct KeySnapshot
{
    QByteArray name;
    bool partial = false; // fields holds only the first page of a bigger hash
    // A candidate with no key of its own (type "none") whose lock turned out to be listed under another reading of its
    // name (LockRecogniser::readKeyless): not classified.
    bool superseded = false;
    QByteArray type; // TYPE's answer: "hash", "string", "none", ...
    QList<QPair<QByteArray, QByteArray>> fields; // a hash's fields and values, as read
    QByteArray value; // a string's value, as read (at most kMaxStringToken + 1 bytes of it)
    bool stringPattern = false; // the name matches a configured string lock pattern
    qint64 pttlMs = -2; // -2 absent, -1 no TTL
    int channelSubscribers = -1; // PUBSUB NUMSUB of the lock's wake-up channel; -1: not read
    int shardSubscribers = -1; // PUBSUB SHARDNUMSUB of the same channel name (sharded pub/sub); -1: not read
    bool declared = false; // the name matches a lock pattern the user configured
    QByteArray library; // the library the name was declared as (--layout-pattern LIBRARY=GLOB); empty: none
    // The owner template the name was declared with (--owner-template GLOB=SPEC): a home-grown lock ("custom").
    std::shared_ptr<const OwnerTemplate> ownerTemplate;
    // A name no pattern declares, taken as Redisson's because someone listens on this channel of it (a counter's
    // waiters: LockRecogniser::vouchingChannelPatterns), and how many; empty: declared, or not vouched for.
    QByteArray vouchedBy;
    int vouchers = 0;
    // A sorted set inside a sorted-set lock pattern (kinds/sortedset/): its first members with their scores, and how
    // many it has in all; -1: not read.
    QList<QPair<QByteArray, qint64>> members;
    qint64 memberCount = -1;
    qint64 nowMs = 0; // epoch ms when it was read, for fair deadlines
    qint64 monoMs = 0; // the same moment on the monotonic clock (monotonicMs()), for TTL deadlines
    // What the layouts' aux reads found beside it (a fencing token, a fair queue, readers' timeout keys, a declared
    // counter's permit set and listeners), each in its layout's own type (LockRecogniser::readAux).
    AuxValues aux;
};

struct LockHolder
{
    QByteArray owner; // the hash field exactly as stored
    QByteArray client; // the client UUID
    QByteArray thread; // the opaque token after it
    qint64 count = 0;
    bool writer = false; // a read-write lock's ":write" field
    bool deadReader = false; // a reader whose rwlock_timeout keys are all gone
    // What a string lock's token tells of its holder, where its library writes it there (empty or 0: it does not).
    QByteArray host; // ShedLock's hostname, DistributedLock's machine
    QByteArray node; // a version 1 UUID's node (redis-py): a MAC address, or random
    qint64 pid = 0; // DistributedLock's process id
    qint64 sinceMs = 0; // epoch ms the hold was taken (ShedLock's time, a version 1 UUID's)
    qint64 expiresMs = 0; // epoch ms an expirable semaphore's permit expires; 0: never
    QByteArray heartbeatKey; // the key an owner template says its holder keeps fresh; empty: none
};

struct LockInfo
{
    // String: the classic single-key lock (SET key token NX PX), not Redisson's. Semaphore, ExpirableSemaphore and
    // CountDownLatch: Redisson's counters, shown beside the locks (their holders are permits, or nobody).
    // PermitSet and TokenSet: holds kept as members of a sorted set (redis-semaphore's semaphore, Symfony's store).
    // UniqueJob: sidekiq-unique-jobs' LOCKED hash of job ids.
    enum class Kind {
        NotALock,
        Reentrant,
        Fair,
        ReadWrite,
        Fenced,
        Unknown,
        String,
        Semaphore,
        ExpirableSemaphore,
        CountDownLatch,
        PermitSet,
        TokenSet,
        UniqueJob
    };
    enum class Confidence { Low, Medium, High };

    QByteArray name;
    Kind kind = Kind::NotALock;
    // The library that wrote it: "redisson" for the lock hashes, a string lock library's id
    // (kinds/string/stringlibrary.h), or "string" for a SET NX lock whose library is not known.
    QByteArray library;
    QByteArray mode; // "read" or "write" for a read-write lock
    QList<LockHolder> holders;
    qint64 counter = -1; // a semaphore's free permits, a latch's count left; -1: no counter
    qint64 ttlMs = -2;
    qint64 readAtMs = 0; // monotonic ms when ttlMs was read: the lease ends at readAtMs + ttlMs
    QList<QPair<QByteArray, qint64>> queue; // fair queue in order, with each waiter's deadline (epoch ms; -1 none)
    int waiters = -1; // listeners on the wake-up channel (both namespaces); -1 unknown
    int shardWaiters = -1; // of those, listeners on the shard channel; -1 unknown
    Confidence confidence = Confidence::Low;
    QStringList evidence; // why it was classified so, for people
    QStringList warnings; // what looks wrong

    bool isLock() const { return kind != Kind::NotALock; }
    static QByteArray kindName(Kind kind); // "reentrant", "fair", "readwrite", "fenced", "unknown", "string"
    static QByteArray confidenceName(Confidence confidence); // "low", "medium", "high"
};

// The longest string value read as a string lock's token: lock tokens are UUIDs or a few dozen random bytes, and a
// longer value is some application's data, read no further.
constexpr int kMaxStringToken = 256;

// Milliseconds on the monotonic clock every TTL deadline uses (QDeadlineTimer's), immune to wall-clock jumps.
qint64 monotonicMs();

// "<uuid>:<token>": lowercase v4-shaped UUID, then a non-empty token without ':'. decimal: a Java thread id.
bool isOwnerField(const QByteArray &field, bool *decimal = nullptr);

// docs/protocol/classification.md. A hash of owner-shaped fields (one owner for an exclusive lock, positive integer
// counts) is a lock; its confidence is low unless something beyond its shape vouches for it (aux keys or listeners
// named after it, or a configured name pattern): user data can look the same. One with no TTL is shown, with a warning
// that it never expires. A string is a lock only inside the string lock patterns, with a TTL and a token-sized,
// non-integer value.
// type "none" with a fair queue or deadline set read: an orphaned fair queue, shown as a fair lock with no holders.
LockInfo classify(const KeySnapshot &key);

// An integer, as a counter holds (Redisson's semaphore permits, a count-down latch): never a string lock's token.
bool isCounterValue(const QByteArray &value);

// The monitor saw the TTL renewed during the current hold: that vouches for a low-confidence lock.
void corroborateByRenewals(LockInfo &info);

// For every action on a lock: "low confidence: this may be application data that looks like a lock (evidence)",
// or empty when the lock is not of low confidence.
QString lowConfidenceText(const LockInfo &info);

} // namespace LockScope
