// How a read-write lock is told from the other layouts, and what only it can say: its mode and its dead readers.
#include "kinds/readwrite/readwritelayout.h"

#include "kinds/hashreading.h"

namespace LockScope {

bool ReadWriteLayout::claimsHash(const KeySnapshot &, const HashReading &hash) const
{
    // The mode field is in the lock's own hash: the strongest evidence, ahead of aux keys that may be leftovers.
    return !hash.mode.isEmpty();
}

void ReadWriteLayout::describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const
{
    info.kind = LockInfo::Kind::ReadWrite;
    info.mode = hash.mode;
    info.evidence << ClassifierText::tr("\"mode\" field is %1").arg(QString::fromLatin1(hash.mode));
    if ((hash.mode == "write") != hash.anyWriter)
        info.warnings << ClassifierText::tr("mode is %1 but the fields say otherwise: corrupt or foreign")
                             .arg(QString::fromLatin1(hash.mode));
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
    if (hash.anyTransactional && hash.anyWriter)
        info.evidence << ClassifierText::tr(
            "a transactional write lock (<uuid>:<tid>:write:<txid>), taken inside a Redisson transaction");
    else if (hash.anyTransactional)
        info.evidence << ClassifierText::tr("a transactional owner (<uuid>:<tid>:<txid>)");
}

} // namespace LockScope
