// What a string lock looks like to the classifier: a string inside a string lock pattern, holding a token, leased
// unless its library takes locks without a lease; and which library wrote it (docs/protocol/libraries.md#recognition).
#include "kinds/string/stringlayout.h"

#include "kinds/custom/ownertemplate.h"
#include "kinds/hashreading.h"
#include "kinds/string/stringlibrary.h"

namespace LockScope {

namespace {
// Redisson's own string keys (docs/protocol/classification.md#redisson-helper-keys) sit beside its locks and are
// never locks themselves, whatever pattern a user configured.
bool redissonStringKey(const QByteArray &name)
{
    return name.startsWith("redisson_lock_token:") || name.startsWith("redisson_unlock_latch:")
        || name.contains(":rwlock_timeout:");
}

QString libraryList(const QList<const StringLibrary *> &libraries)
{
    QStringList ids;
    for (const StringLibrary *library : libraries)
        ids << QString::fromLatin1(library->id());
    return ids.join(QLatin1String(", "));
}

} // namespace

bool StringLayout::classifyTemplated(const KeySnapshot &key, LockInfo &info)
{
    const OwnerTemplate &t = *key.ownerTemplate;
    info.kind = LockInfo::Kind::String;
    info.library = "custom";
    LockHolder h;
    h.owner = key.value; // the whole value: the release compares and deletes exactly what was read
    h.count = 1;
    info.evidence << ClassifierText::tr("its name was declared with the owner template %1=%2")
                         .arg(QString::fromUtf8(t.glob), QString::fromUtf8(t.spec));
    if (t.describe(key.name, h)) {
        info.confidence = LockInfo::Confidence::High;
        info.evidence
            << ClassifierText::tr("its value has the template's shape: owner %1").arg(QString::fromUtf8(h.client));
    } else {
        // Declared, so shown; but what it says of its holder cannot be read.
        info.confidence = LockInfo::Confidence::Medium;
        info.warnings << ClassifierText::tr("its value does not have its owner template's shape (%1): its holder "
                                            "cannot be read from it")
                             .arg(QString::fromUtf8(t.spec));
    }
    if (key.pttlMs == -1) {
        info.evidence << ClassifierText::tr("no TTL");
        info.warnings << ClassifierText::tr("never expires: it has no TTL, so if its holder died it stays locked until "
                                            "someone releases it");
    } else {
        info.evidence << ClassifierText::tr("has a TTL");
    }
    info.holders << h;
    return true;
}

bool StringLayout::classifyKey(const KeySnapshot &key, LockInfo &info) const
{
    // Only inside the string lock patterns: elsewhere a string is application data.
    if (key.type != "string" || !key.stringPattern)
        return false;
    // A value of any length is some application's data. An integer is a counter (Redisson's semaphore permits, a
    // count-down latch), never a holder's token.
    if (key.pttlMs == -2 || key.value.isEmpty() || key.value.size() > kMaxStringToken || redissonStringKey(key.name))
        return true;
    // A team's own scheme, declared: its value is whatever the team writes, an integer too (a start time).
    if (key.ownerTemplate)
        return classifyTemplated(key, info);
    if (isCounterValue(key.value))
        return true;
    const StringIdentity id = StringLibraries::identify(key.name, key.value, key.library);
    // A key that never expires is data, unless its library takes locks without a lease and its name and token agree:
    // then it is the classic stuck lock, shown with a warning.
    const bool neverExpires = key.pttlMs == -1;
    if (neverExpires && !(id.library && id.fits && id.library->mayNeverExpire()))
        return true;
    info.kind = LockInfo::Kind::String;
    info.library = id.library ? id.library->id() : "string";
    LockHolder h;
    h.owner = key.value;
    h.count = 1;
    if (id.library && id.fits)
        id.library->describeHolder(key.value, h);
    info.holders << h;
    info.confidence = id.fits && id.named ? LockInfo::Confidence::High : LockInfo::Confidence::Medium;
    if (id.declared)
        info.evidence << ClassifierText::tr("its name was declared as %1's").arg(QString::fromLatin1(info.library));
    else
        info.evidence << ClassifierText::tr("a string inside a configured string lock pattern");
    if (neverExpires)
        info.evidence << ClassifierText::tr("no TTL: %1 takes locks without one by default")
                             .arg(QString::fromLatin1(info.library));
    else
        info.evidence << ClassifierText::tr("has a TTL");
    info.evidence << ClassifierText::tr("its value is the holder's token");
    if (id.library && id.fits) {
        if (id.named && !id.declared)
            info.evidence << ClassifierText::tr("its name has %1's prefix").arg(QString::fromLatin1(info.library));
        info.evidence << ClassifierText::tr("the token has %1's shape: %2")
                             .arg(QString::fromLatin1(info.library), ClassifierText::tr(id.library->tokenShape()));
    } else if (id.declared) {
        info.evidence << ClassifierText::tr("the token does not have %1's shape (%2)")
                             .arg(QString::fromLatin1(info.library), ClassifierText::tr(id.library->tokenShape()));
    }
    if (!id.others.isEmpty())
        info.evidence << ClassifierText::tr("the same shape fits: %1").arg(libraryList(id.others));
    if (neverExpires)
        info.warnings << ClassifierText::tr("never expires: it has no TTL, so if its holder died it stays locked until "
                                            "someone releases it");
    return true;
}

} // namespace LockScope
