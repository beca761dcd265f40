#include "kinds/fenced/fencedlayout.h"

#include "kinds/acquirecheck.h"
#include "kinds/auxreader.h"
#include "kinds/fenced/fencedlockscripts.h"
#include "kinds/hashreading.h"
#include "kinds/locknamemap.h"
#include "kinds/locknames.h"

namespace LockScope {

LockCapabilities FencedLayout::capabilities() const
{
    LockCapabilities c = ReentrantLayout::capabilities();
    c.fencing = true;
    return c;
}

QList<AcquireMode> FencedLayout::modes() const
{
    return { { LockMode::Fenced, "fenced", QT_TRANSLATE_NOOP("LockScope::AcquireDialog", "Fenced"),
        QT_TRANSLATE_NOOP("AcquireCheck", "a fenced lock") } };
}

ScriptCall FencedLayout::acquire(LockMode, const AcquireCall &call) const
{
    // The token key is written, so it is a key too; the kind check reads every aux key from the arguments' tail.
    return { &FencedLockScripts::acquire(), { call.name, LockNames::fencingToken(call.name) },
        QList<QByteArray> { QByteArray::number(call.leaseMs), call.owner } + AcquireCheck::auxKeys(call.name) };
}

void FencedLayout::readAux(AuxReader &reader) const
{
    reader.command({ "EXISTS", LockNames::fencingToken(reader.snapshot().name) },
        [](KeySnapshot &s, const RedisResult &r) { s.aux.get<FencedAux>().tokenKeyExists = r.value.toInteger() == 1; });
}

namespace {
bool tokenKeyExists(const KeySnapshot &key)
{
    const FencedAux *aux = key.aux.find<FencedAux>();
    return aux && aux->tokenKeyExists;
}
} // namespace

AuxEvidence FencedLayout::auxEvidence(const KeySnapshot &key) const
{
    return { tokenKeyExists(key), tokenKeyExists(key) };
}

std::optional<HashMark> FencedLayout::hashMark() const
{
    return HashMark { 10, {}, { &LockNames::fencingToken },
        [](const KeySnapshot &key, const HashReading &) { return tokenKeyExists(key); },
        QT_TRANSLATE_NOOP("AcquireCheck", "a fenced lock (its fencing token key %1 exists)") };
}

void FencedLayout::describeHash(const KeySnapshot &, const HashReading &hash, LockInfo &info) const
{
    describeExclusive(hash, info, LockInfo::Kind::Fenced, ClassifierText::tr("a fencing token key exists"));
}

QList<QByteArray> FencedLayout::namesFromAuxKey(const QByteArray &key) const
{
    return LockNameMap::namesAfter(key, "redisson_lock_token:");
}

} // namespace LockScope
