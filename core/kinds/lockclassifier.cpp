#include "kinds/lockclassifier.h"

#include "kinds/hashreading.h"
#include "kinds/hashrecognition.h"
#include "kinds/locklayouts.h"
#include "kinds/locknames.h"
#include "kinds/textpool.h"
#include "redis/bytesformat.h"

#include <QCoreApplication>
#include <QDeadlineTimer>

#include <algorithm>

namespace LockScope {

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

// Strips the suffixes the protocol allows after an owner: ":<32hex>" (a transaction's id), then ":write" (read-write),
// so a transactional write lock's "<uuid>:<tid>:write:<txid>" is a writer too.
QByteArray ownerPart(const QByteArray &field, bool *writer, bool *transactional)
{
    *writer = false;
    *transactional = false;
    QByteArray owner = field;
    const int colon = owner.lastIndexOf(':');
    if (colon > 37 && owner.size() - colon - 1 == 32 && isLowerHex(owner.mid(colon + 1))) {
        *transactional = true;
        owner.truncate(colon);
    }
    if (owner.endsWith(":write")) {
        *writer = true;
        owner.chop(6);
    }
    return owner;
}

} // namespace

bool isCounterValue(const QByteArray &value)
{
    bool ok = false;
    value.toLongLong(&ok);
    // toLongLong accepts surrounding blanks; INCR's values and a semaphore's SET have none.
    return ok && !value.isEmpty() && value.trimmed().size() == value.size();
}

QString lowConfidenceText(const LockInfo &info)
{
    if (!info.isLock() || info.confidence != LockInfo::Confidence::Low)
        return {};
    return ClassifierText::tr("low confidence: this may be application data that looks like a lock (%1)")
        .arg(info.evidence.join(QLatin1String("; ")));
}

void corroborateByRenewals(LockInfo &info)
{
    if (!info.isLock() || info.confidence != LockInfo::Confidence::Low || info.ttlMs <= 0)
        return;
    // A TTL pushed back again and again is a watchdog at work: user data is not renewed on a lock's rhythm.
    info.confidence = info.kind == LockInfo::Kind::Unknown ? LockInfo::Confidence::Medium : LockInfo::Confidence::High;
    info.evidence << ClassifierText::tr("renewals seen: something keeps extending its TTL, as a watchdog does");
}

QByteArray LockInfo::kindName(Kind kind)
{
    if (const LockLayout *layout = LockLayouts::forKind(kind))
        return layout->id();
    return kind == Kind::Unknown ? "unknown" : "none";
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

namespace {

LockInfo classifySnapshot(const KeySnapshot &key)
{
    LockInfo info;
    info.name = key.name;
    info.ttlMs = key.pttlMs;
    info.readAtMs = key.monoMs;
    // Keys that are no Redisson lock hash are some layout's own business: a string lock, an orphaned fair queue, a
    // sorted set's holders, a hash of another library's.
    for (const LockLayout *layout : LockLayouts::all())
        if (layout->recogniser().classifyKey(key, info))
            return info;
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

    // Corroboration beyond the shape. A lock hash with no TTL and nothing else is still shown (the classic stuck
    // lock: it never expires), but only when the shape rules below hold, and with low confidence.
    const bool hasTtl = key.pttlMs > 0;
    // Each layout says what its own aux reads found (a token key, a fair queue, readers' timeout keys).
    bool auxFound = false, auxVouches = false;
    for (const LockLayout *layout : LockLayouts::all()) {
        const AuxEvidence evidence = layout->recogniser().auxEvidence(key);
        auxFound = auxFound || evidence.found;
        auxVouches = auxVouches || evidence.vouches;
    }
    const bool listeners = key.channelSubscribers > 0 || key.shardSubscribers > 0;
    const bool aux = auxFound || listeners;
    const HashReading hash { mode, anyWriter, anyTransactional };
    // What raises confidence: Redisson's own aux keys, listeners, or the user's word. A TTL, Java-looking thread ids
    // and a single owner are what look-alike user data (per-session counters that expire) has too.
    const bool corroborated = auxVouches || listeners || key.declared;
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

    if (hasTtl) {
        info.evidence << ClassifierText::tr("has a TTL");
    } else if (key.pttlMs == -1) {
        info.warnings << ClassifierText::tr(
            "no TTL: it never expires, and only a force release ends it (someone removed its TTL, or a foreign "
            "writer never set one); Java lock() waiters wait for a message that may never come");
    }
    if (allDecimal)
        info.evidence << ClassifierText::tr("owners are <uuid>:<decimal thread id>");
    else
        info.evidence << ClassifierText::tr("owners are <uuid>:<token> (a non-Java implementation)");
    if (key.declared)
        info.evidence << ClassifierText::tr("the name matches a configured lock pattern");
    if (key.channelSubscribers > 0)
        info.evidence << ClassifierText::tr(
            "%n client(s) listen on its wake-up channel", nullptr, key.channelSubscribers);
    if (key.shardSubscribers > 0)
        info.evidence << ClassifierText::tr(
            "%n client(s) listen on its shard channel (sharded pub/sub)", nullptr, key.shardSubscribers);
    if (key.channelSubscribers > 0 && key.shardSubscribers > 0)
        // docs/protocol/README.md#plain-and-sharded-publishing: the namespaces are separate, so one release wakes only
        // one side of a mixed fleet.
        info.warnings << ClassifierText::tr(
            "waiters listen on both the plain (%1) and the sharded (%2) channel: a mixed fleet, where a release "
            "published on one leaves the others asleep until their TTL; publish with both")
                             .arg(key.channelSubscribers)
                             .arg(key.shardSubscribers);

    info.waiters = key.channelSubscribers;
    info.shardWaiters = key.shardSubscribers;
    if (key.shardSubscribers > 0)
        info.waiters = qMax(0, info.waiters) + key.shardSubscribers;
    // The layout whose fingerprint this hash has names its kind and adds what it alone knows.
    if (const LockLayout *layout = HashRecognition::classify(key, hash))
        layout->recogniser().describeHash(key, hash, info);
    // What every layout's aux reads add, whichever layout this is (a stray fair queue is shown beside a fenced lock).
    for (const LockLayout *layout : LockLayouts::all())
        layout->recogniser().describeAux(key, info);
    if (!corroborated)
        info.evidence << ClassifierText::tr(
            "nothing but its shape vouches for it: no aux keys, no listener, no configured lock name pattern");
    // Corroborated and leased: high. Corroborated but never expiring, or anomalous (several exclusive owners):
    // medium. Its shape alone: low, whatever its TTL.
    info.confidence = !corroborated                      ? LockInfo::Confidence::Low
        : hasTtl && info.kind != LockInfo::Kind::Unknown ? LockInfo::Confidence::High
                                                         : LockInfo::Confidence::Medium;
    return info;
}

} // namespace

LockInfo classify(const KeySnapshot &key)
{
    LockInfo info = classifySnapshot(key);
    if (!info.isLock())
        return info;
    // A layout that knows the library from the key itself has named it already (a string lock's); the others are one
    // library's (Redisson's lock hashes).
    if (info.library.isEmpty())
        info.library = LockLayouts::forRecord(info.kind).library();
    // What repeats from lock to lock is kept once (textpool.h): with a hundred thousand locks, that is most of them.
    info.library = TextPool::bytes(info.library);
    info.evidence = TextPool::texts(info.evidence);
    info.warnings = TextPool::texts(info.warnings);
    for (LockHolder &h : info.holders) {
        h.client = TextPool::bytes(h.client);
        h.host = TextPool::bytes(h.host);
        h.node = TextPool::bytes(h.node);
    }
    info.holders.squeeze();
    return info;
}

} // namespace LockScope
