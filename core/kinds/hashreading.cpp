#include "kinds/hashreading.h"

#include "kinds/lockclassifier.h"

namespace LockScope {

void describeExclusive(const HashReading &hash, LockInfo &info, LockInfo::Kind kind, const QString &evidence)
{
    // Redisson's exclusive locks have exactly one owner field.
    if (info.holders.size() != 1)
        info.warnings << ClassifierText::tr("%n owners in an exclusive lock", nullptr, int(info.holders.size()));
    info.kind = kind;
    if (!evidence.isEmpty())
        info.evidence << evidence;
    if (hash.anyTransactional)
        info.evidence << ClassifierText::tr("a transactional owner (<uuid>:<tid>:<txid>)");
}

} // namespace LockScope
