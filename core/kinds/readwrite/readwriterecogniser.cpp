// How a read-write lock is found and told from the other layouts, and what only it can say: its mode and its dead
// readers.
#include "kinds/readwrite/readwriterecogniser.h"

#include "kinds/auxreader.h"
#include "kinds/hashreading.h"
#include "kinds/locknamemap.h"
#include "kinds/locknames.h"

#include <algorithm>

namespace LockScope {

void ReadWriteRecogniser::readAux(AuxReader &reader) const
{
    const KeySnapshot &snapshot = reader.snapshot();
    if (std::none_of(snapshot.fields.cbegin(), snapshot.fields.cend(), [](const auto &f) { return f.first == "mode"; }))
        return;
    // Each reader's timeout keys 1..count: how many are still alive says whether the reader is.
    for (const auto &[field, value] : snapshot.fields) {
        if (field == "mode" || field.endsWith(":write"))
            continue;
        QList<QByteArray> argv { "EXISTS" };
        const QByteArray prefix = LockNames::rwTimeoutPrefix(snapshot.name, field);
        const qint64 count = qBound(qint64(0), value.toLongLong(), qint64(1000));
        for (qint64 k = 1; k <= count; ++k)
            argv << prefix + ':' + QByteArray::number(k);
        if (argv.size() == 1)
            continue;
        // An init-capture: C++17 forbids capturing a structured binding (GCC allows it, clang 14 does not).
        reader.command(argv, [field = field](KeySnapshot &s, const RedisResult &r) {
            s.aux.get<ReaderTimeoutsAux>().live.insert(field, int(r.value.toInteger()));
        });
    }
}

namespace {
QHash<QByteArray, int> liveTimeouts(const KeySnapshot &key)
{
    const ReaderTimeoutsAux *aux = key.aux.find<ReaderTimeoutsAux>();
    return aux ? aux->live : QHash<QByteArray, int>();
}
} // namespace

AuxEvidence ReadWriteRecogniser::auxEvidence(const KeySnapshot &key) const
{
    const QHash<QByteArray, int> live = liveTimeouts(key);
    // A reader's field read is aux found; only a timeout key still there says a reader is alive.
    return { !live.isEmpty(), std::any_of(live.cbegin(), live.cend(), [](int n) { return n > 0; }) };
}

void ReadWriteRecogniser::describeAux(const KeySnapshot &key, LockInfo &info) const
{
    if (auxEvidence(key).vouches)
        info.evidence << ClassifierText::tr("its readers' timeout keys exist");
}

std::optional<HashMark> ReadWriteRecogniser::hashMark() const
{
    return HashMark { 0, "mode", {}, [](const KeySnapshot &, const HashReading &hash) { return !hash.mode.isEmpty(); },
        QT_TRANSLATE_NOOP("AcquireCheck", "a read-write lock (its hash has a mode field)") };
}

void ReadWriteRecogniser::describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const
{
    info.kind = LockInfo::Kind::ReadWrite;
    info.mode = hash.mode;
    info.evidence << ClassifierText::tr("\"mode\" field is %1").arg(QString::fromLatin1(hash.mode));
    if ((hash.mode == "write") != hash.anyWriter)
        info.warnings << ClassifierText::tr("mode is %1 but the fields say otherwise: corrupt or foreign")
                             .arg(QString::fromLatin1(hash.mode));
    const QHash<QByteArray, int> timeouts = liveTimeouts(key);
    for (LockHolder &h : info.holders) {
        if (h.writer)
            continue;
        const auto live = timeouts.constFind(h.owner);
        if (live != timeouts.cend() && *live == 0) {
            h.deadReader = true;
            info.warnings << ClassifierText::tr(
                "reader %1 is dead (its timeout keys are gone) and keeps writers out until the "
                "hash expires")
                                 .arg(QString::fromUtf8(h.owner));
        }
    }
    if (hash.anyTransactional && hash.anyWriter)
        info.evidence << ClassifierText::tr(
            "a transactional write lock (<uuid>:<tid>:write:<txid>), taken inside a Redisson transaction");
    else if (hash.anyTransactional)
        info.evidence << ClassifierText::tr("a transactional owner (<uuid>:<tid>:<txid>)");
}

QByteArray ReadWriteRecogniser::releaseChannel(const QByteArray &name) const
{
    return LockNames::rwChannel(name);
}

QList<QByteArray> ReadWriteRecogniser::releaseChannelPatterns() const
{
    return { QByteArrayLiteral("redisson_rwlock:*") };
}

QList<QByteArray> ReadWriteRecogniser::namesFromChannel(const QByteArray &channel) const
{
    return LockNameMap::namesAfter(channel, "redisson_rwlock:");
}

QList<QByteArray> ReadWriteRecogniser::namesFromAuxKey(const QByteArray &key) const
{
    // suffixName(N, "<owner>:rwlock_timeout") + ":<k>"
    const int marker = key.lastIndexOf(":rwlock_timeout:");
    QByteArray holderPart;
    if (marker > 0 && LockNameMap::stripOwner(key.left(marker), &holderPart))
        return LockNameMap::unwrap(holderPart);
    return {};
}

} // namespace LockScope
