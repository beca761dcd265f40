#include "kinds/locknamemap.h"

#include "kinds/lockclassifier.h"
#include "kinds/locklayout.h"
#include "kinds/locklayouts.h"

namespace LockScope::LockNameMap {

// prefixName(P, N) is "P:{N}" when N has no '{', else "P:N": this undoes it for the part after "P:". "{X}" is both
// X wrapped and a name that is one whole hash tag, used as it is ("P:{X}" for the lock "{X}"): both readings count.
QList<QByteArray> unwrap(const QByteArray &rest)
{
    if (rest.size() >= 2 && rest.startsWith('{') && rest.endsWith('}')) {
        const QByteArray inner = rest.mid(1, rest.size() - 2);
        if (!inner.contains('{'))
            return { inner, rest };
    }
    return { rest };
}

// "<X>:<uuid>:<token>" -> X, when the last two segments are an owner field.
bool stripOwner(const QByteArray &text, QByteArray *rest)
{
    const int last = text.lastIndexOf(':');
    if (last <= 0)
        return false;
    const int previous = text.lastIndexOf(':', last - 1);
    if (previous <= 0 || !isOwnerField(text.mid(previous + 1)))
        return false;
    *rest = text.left(previous);
    return true;
}

bool afterPrefix(const QByteArray &text, const char *prefix, QByteArray *rest)
{
    if (!text.startsWith(prefix))
        return false;
    *rest = text.mid(qstrlen(prefix));
    return !rest->isEmpty();
}

QList<QByteArray> namesAfter(const QByteArray &channel, const char *prefix)
{
    QByteArray rest;
    return afterPrefix(channel, prefix, &rest) ? unwrap(rest) : QList<QByteArray> {};
}

QList<QByteArray> fromKey(const QByteArray &key)
{
    const QList<QByteArray> names = fromAuxKey(key);
    return names.isEmpty() ? QList<QByteArray> { key } : names;
}

QList<QByteArray> fromAuxKey(const QByteArray &key)
{
    QList<QByteArray> names;
    for (const LockLayout *layout : LockLayouts::all())
        for (const QByteArray &name : layout->recogniser().namesFromAuxKey(key))
            if (!names.contains(name))
                names << name;
    return names;
}

QList<QByteArray> fromChannel(const QByteArray &channel)
{
    QList<QByteArray> names;
    for (const LockLayout *layout : LockLayouts::all())
        for (const QByteArray &name : layout->recogniser().namesFromChannel(channel))
            if (!names.contains(name))
                names << name;
    return names;
}

QList<QByteArray> releaseChannelPatterns()
{
    QList<QByteArray> patterns;
    for (const LockLayout *layout : LockLayouts::all())
        for (const QByteArray &pattern : layout->recogniser().releaseChannelPatterns())
            if (!patterns.contains(pattern))
                patterns << pattern;
    return patterns;
}

QList<QByteArray> vouchingChannelPatterns()
{
    QList<QByteArray> patterns;
    for (const LockLayout *layout : LockLayouts::all())
        for (const QByteArray &pattern : layout->recogniser().vouchingChannelPatterns())
            if (!patterns.contains(pattern))
                patterns << pattern;
    return patterns;
}

QList<QByteArray> vouchingChannels(const QByteArray &name)
{
    QList<QByteArray> channels;
    for (const LockLayout *layout : LockLayouts::all()) {
        if (layout->recogniser().vouchingChannelPatterns().isEmpty())
            continue;
        const QByteArray channel = layout->recogniser().releaseChannel(name);
        if (!channel.isEmpty() && !channels.contains(channel))
            channels << channel;
    }
    return channels;
}

bool isBookkeeping(const QByteArray &key)
{
    return key.startsWith("redisson_unlock_latch:");
}

} // namespace LockScope::LockNameMap
