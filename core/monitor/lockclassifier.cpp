#include "lockclassifier.h"

#include "bytesformat.h"
#include "locknames.h"

#include <QCoreApplication>
#include <QDeadlineTimer>

namespace LockScope {

// Gives lupdate and the run time one context for the classifier's texts (a free function named tr() would be
// filed by lupdate under the enclosing namespace, and never found at run time).
class ClassifierText
{
    Q_DECLARE_TR_FUNCTIONS(LockScope::LockClassifier)
};

namespace {

bool positiveInteger(const QByteArray &value, qint64 *out)
{
    bool ok = false;
    const qint64 n = value.toLongLong(&ok);
    if (out)
        *out = n;
    return ok && n > 0;
}

bool isLowerHex(const QByteArray &text)
{
    for (char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

// Strips a suffix the protocol allows after an owner: ":write" (read-write) or ":<32hex>" (transaction).
QByteArray ownerPart(const QByteArray &field, bool *writer, bool *transactional)
{
    *writer = false;
    *transactional = false;
    if (field.endsWith(":write")) {
        *writer = true;
        return field.chopped(6);
    }
    const int colon = field.lastIndexOf(':');
    if (colon > 37 && field.size() - colon - 1 == 32 && isLowerHex(field.mid(colon + 1))) {
        *transactional = true;
        return field.left(colon);
    }
    return field;
}

// Redisson's own string keys (protocol §8) sit beside its locks and are never locks themselves, whatever pattern
// a user configured.
bool redissonStringKey(const QByteArray &name)
{
    return name.startsWith("redisson_lock_token:") || name.startsWith("redisson_unlock_latch:")
        || name.contains(":rwlock_timeout:");
}

LockInfo classifyString(const KeySnapshot &key, LockInfo info)
{
    // A value of any length is some application's data, as is a key that never expires: a lock has a lease.
    if (!key.stringPattern || key.pttlMs <= 0 || key.value.isEmpty() || key.value.size() > kMaxStringToken
        || redissonStringKey(key.name))
        return info;
    info.kind = LockInfo::Kind::String;
    LockHolder h;
    h.owner = key.value;
    h.count = 1;
    info.holders << h;
    info.confidence = LockInfo::Confidence::Medium;
    info.evidence << ClassifierText::tr("a string inside a configured string lock pattern")
                  << ClassifierText::tr("has a TTL (%1 ms)").arg(key.pttlMs)
                  << ClassifierText::tr("its value is the holder's token");
    return info;
}
} // namespace

QByteArray LockInfo::kindName(Kind kind)
{
    switch (kind) {
    case Kind::NotALock:
        return "none";
    case Kind::Reentrant:
        return "reentrant";
    case Kind::Fair:
        return "fair";
    case Kind::ReadWrite:
        return "readwrite";
    case Kind::Fenced:
        return "fenced";
    case Kind::Unknown:
        return "unknown";
    case Kind::String:
        return "string";
    }
    return {};
}

QByteArray LockInfo::confidenceName(Confidence confidence)
{
    switch (confidence) {
    case Confidence::Low:
        return "low";
    case Confidence::Medium:
        return "medium";
    case Confidence::High:
        return "high";
    }
    return {};
}

qint64 monotonicMs()
{
    return QDeadlineTimer::current().deadline();
}

bool isOwnerField(const QByteArray &field, bool *decimal)
{
    QByteArray client, token;
    if (!LockNames::splitOwner(field, &client, &token) || token.isEmpty() || token.contains(':'))
        return false;
    if (decimal) {
        bool ok = false;
        token.toLongLong(&ok);
        *decimal = ok;
    }
    return true;
}

LockInfo classify(const KeySnapshot &key)
{
    LockInfo info;
    info.name = key.name;
    info.ttlMs = key.pttlMs;
    info.readAtMs = key.monoMs;
    if (key.type == "string" && key.stringPattern)
        return classifyString(key, std::move(info));
    if (key.type != "hash") {
        // A name people declared as a lock that holds something else is what makes Redisson fail with WRONGTYPE.
        if (key.declared && key.type != "none")
            info.warnings << ClassifierText::tr("declared lock name holds a %1, not a lock hash")
                                 .arg(QString::fromLatin1(key.type));
        return info;
    }
    if (key.fields.isEmpty())
        return info;

    QByteArray mode;
    QStringList malformed;
    bool allDecimal = true, anyWriter = false, anyTransactional = false;
    for (const auto &[field, value] : key.fields) {
        if (field == "mode") {
            mode = value;
            continue;
        }
        bool writer = false, transactional = false, decimal = false;
        const QByteArray owner = ownerPart(field, &writer, &transactional);
        LockHolder h;
        if (!isOwnerField(owner, &decimal))
            return info; // one field that is not an owner: not a lock
        if (!positiveInteger(value, &h.count)) {
            malformed << ClassifierText::tr("owner %1 has the count \"%2\", not a positive integer")
                             .arg(escapeBytes(field, 120), escapeBytes(value, 40));
            h.count = 0;
        }
        LockNames::splitOwner(owner, &h.client, &h.thread);
        h.owner = field;
        h.writer = writer;
        allDecimal = allDecimal && decimal;
        anyWriter = anyWriter || writer;
        anyTransactional = anyTransactional || transactional;
        info.holders << h;
    }
    const bool readWrite = !mode.isEmpty();
    if (readWrite && mode != "read" && mode != "write")
        return info; // a "mode" field with another value: some other application's hash
    if (!readWrite && anyWriter)
        return info;

    // Corroboration beyond the shape: without any, a look-alike user hash stays user data.
    const bool hasTtl = key.pttlMs > 0;
    const bool fairAux = !key.queue.isEmpty() || !key.queueDeadlines.isEmpty();
    const bool aux = key.tokenKeyExists || fairAux || key.channelSubscribers > 0 || key.shardSubscribers > 0
        || !key.liveReadTimeouts.isEmpty();
    if (!hasTtl && !aux && !key.declared)
        return info;
    if (!malformed.isEmpty()) {
        // Owner-shaped fields with a non-numeric value are usually user data (a look-alike); only when something
        // else names this key a lock is it a lock someone corrupted, and then it is reported, not guessed at.
        if (!aux && !key.declared) {
            info.holders.clear();
            return info;
        }
        info.kind = LockInfo::Kind::Unknown;
        info.warnings << malformed;
        info.evidence << ClassifierText::tr(
            "lock-shaped, with aux keys or a declared name, but its counts are malformed");
        info.waiters = key.channelSubscribers;
        info.readAtMs = key.monoMs;
        return info;
    }
    // Redisson's exclusive locks have exactly one owner field; several, vouched for by nothing but a TTL, are far
    // more likely user data (per-session counters that expire) than a lock.
    if (!readWrite && info.holders.size() > 1 && !aux && !key.declared) {
        info.holders.clear();
        return info;
    }

    int support = 0;
    if (hasTtl) {
        ++support;
        info.evidence << ClassifierText::tr("has a TTL (%1 ms)").arg(key.pttlMs);
    } else if (key.pttlMs == -1) {
        info.warnings << ClassifierText::tr(
            "no TTL: someone removed it, or a foreign writer never set one; Java lock() waiters "
            "will wait for a message that may never come");
    }
    if (allDecimal) {
        ++support;
        info.evidence << ClassifierText::tr("owners are <uuid>:<decimal thread id>");
    } else {
        info.evidence << ClassifierText::tr("owners are <uuid>:<token> (a non-Java implementation)");
    }
    if (key.declared) {
        ++support;
        info.evidence << ClassifierText::tr("the name matches a configured lock pattern");
    }
    if (key.channelSubscribers > 0)
        info.evidence << ClassifierText::tr(
            "%n client(s) listen on its wake-up channel", nullptr, key.channelSubscribers);
    if (key.shardSubscribers > 0)
        info.evidence << ClassifierText::tr(
            "%n client(s) listen on its shard channel (sharded pub/sub)", nullptr, key.shardSubscribers);
    if (key.channelSubscribers > 0 && key.shardSubscribers > 0)
        // Protocol §3: the namespaces are separate, so one release wakes only one side of a mixed fleet.
        info.warnings << ClassifierText::tr(
            "waiters listen on both the plain (%1) and the sharded (%2) channel: a mixed fleet, where a release "
            "published on one leaves the others asleep until their TTL; publish with both")
                             .arg(key.channelSubscribers)
                             .arg(key.shardSubscribers);

    if (readWrite) {
        info.kind = LockInfo::Kind::ReadWrite;
        info.mode = mode;
        ++support;
        info.evidence << ClassifierText::tr("\"mode\" field is %1").arg(QString::fromLatin1(mode));
        if ((mode == "write") != anyWriter)
            info.warnings << ClassifierText::tr("mode is %1 but the fields say otherwise: corrupt or foreign")
                                 .arg(QString::fromLatin1(mode));
        for (LockHolder &h : info.holders) {
            if (h.writer)
                continue;
            const auto live = key.liveReadTimeouts.constFind(h.owner);
            if (live != key.liveReadTimeouts.cend() && *live == 0) {
                h.deadReader = true;
                info.warnings << ClassifierText::tr(
                    "reader %1 is dead (its timeout keys are gone) and keeps writers out until the "
                    "hash expires")
                                     .arg(QString::fromUtf8(h.owner));
            }
        }
    } else {
        if (info.holders.size() == 1) {
            ++support;
        } else {
            info.warnings << ClassifierText::tr("%n owners in an exclusive lock", nullptr, int(info.holders.size()));
        }
        if (key.tokenKeyExists) {
            info.kind = LockInfo::Kind::Fenced;
            ++support;
            info.evidence << ClassifierText::tr("a fencing token key exists");
        } else if (fairAux) {
            info.kind = LockInfo::Kind::Fair;
            ++support;
            info.evidence << ClassifierText::tr("a fair queue exists (%n waiting)", nullptr, int(key.queue.size()));
        } else {
            info.kind = info.holders.size() == 1 ? LockInfo::Kind::Reentrant : LockInfo::Kind::Unknown;
        }
        if (anyTransactional)
            info.evidence << ClassifierText::tr("a transactional owner (<uuid>:<tid>:<txid>)");
    }
    info.waiters = key.channelSubscribers;
    info.shardWaiters = key.shardSubscribers;
    if (key.shardSubscribers > 0)
        info.waiters = qMax(0, info.waiters) + key.shardSubscribers;
    // Fair waiters listen on channels of their own, not the lock's: the queue is the count.
    if (info.kind == LockInfo::Kind::Fair)
        info.waiters = qMax(info.waiters, int(key.queue.size()));
    for (const QByteArray &member : key.queue)
        info.queue.append({ member, key.queueDeadlines.value(member, -1) });
    if (!key.queue.isEmpty()) {
        const QByteArray head = key.queue.first();
        const qint64 deadline = key.queueDeadlines.value(head, -1);
        if (deadline >= 0 && deadline <= key.nowMs)
            info.warnings << ClassifierText::tr("the fair queue is jammed: its head's deadline has passed");
    }
    info.confidence = support >= 3 ? LockInfo::Confidence::High
        : support >= 2             ? LockInfo::Confidence::Medium
                                   : LockInfo::Confidence::Low;
    return info;
}

} // namespace LockScope
