// redis-py's Lock: the name as given, a uuid1 as token, docs/protocol/libraries.md#redis-py.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

class RedisPy : public StringLibrary
{
public:
    const char *id() const override { return "redis-py"; }
    // uuid1().hex: 32 lowercase hex digits whose 13th, the version, is 1.
    bool tokenFits(const QByteArray &token) const override { return TokenShape::hex(token, 32) && token.at(12) == '1'; }
    const char *tokenShape() const override
    {
        return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "32 hex digits of a time-based UUID (version 1)");
    }
    bool mayNeverExpire() const override { return true; } // timeout=None is its default
    // A version 1 UUID carries when it was made (100 ns steps since 1582-10-15) and the node that made it (a MAC
    // address, or random bits with the multicast bit set when the host has none).
    void describeHolder(const QByteArray &token, LockHolder &holder) const override
    {
        bool ok = false;
        const quint64 low = token.left(8).toULongLong(&ok, 16);
        const quint64 mid = token.mid(8, 4).toULongLong(&ok, 16);
        const quint64 high = token.mid(12, 4).toULongLong(&ok, 16) & 0x0fff;
        const quint64 ticks = (high << 48) | (mid << 32) | low;
        constexpr quint64 unixEpochTicks = 0x01b21dd213814000ULL;
        if (ticks > unixEpochTicks)
            holder.sinceMs = qint64((ticks - unixEpochTicks) / 10000);
        QByteArray node;
        for (int i = 20; i < 32; i += 2)
            node += (node.isEmpty() ? "" : ":") + token.mid(i, 2);
        holder.node = node;
    }
};

} // namespace

const StringLibrary &redisPy()
{
    static const RedisPy library;
    return library;
}

} // namespace LockScope::Libraries
