#include "clients/cliententry.h"

#include <limits>

namespace LockScope {

namespace {

qint64 number(const QByteArray &value, qint64 fallback = -1)
{
    bool ok = false;
    const qint64 n = value.toLongLong(&ok);
    return ok ? n : fallback;
}

int smallNumber(const QByteArray &value)
{
    const qint64 n = number(value);
    return n >= 0 && n <= std::numeric_limits<int>::max() ? int(n) : -1;
}

} // namespace

QByteArray ClientEntry::lib() const
{
    if (libName.isEmpty())
        return {};
    return libVer.isEmpty() ? libName : libName + ' ' + libVer;
}

QList<ClientEntry> parseClientList(const QByteArray &reply, const QByteArray &node)
{
    QList<ClientEntry> entries;
    for (QByteArray line : reply.split('\n')) {
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty())
            continue;
        ClientEntry e;
        e.node = node;
        bool hasId = false;
        // Values hold no spaces (the server refuses a name or a library with one), so a space always ends a pair.
        for (const QByteArray &pair : line.split(' ')) {
            const qsizetype eq = pair.indexOf('=');
            if (eq <= 0)
                continue;
            const QByteArray key = pair.left(eq);
            const QByteArray value = pair.mid(eq + 1);
            if (key == "id") {
                bool ok = false;
                e.id = value.toLongLong(&ok);
                hasId = ok && e.id >= 0;
            } else if (key == "addr") {
                e.addr = value;
            } else if (key == "laddr") {
                e.laddr = value;
            } else if (key == "name") {
                e.name = value;
            } else if (key == "lib-name") {
                e.libName = value;
            } else if (key == "lib-ver") {
                e.libVer = value;
            } else if (key == "user") {
                e.user = value;
            } else if (key == "age") {
                e.ageS = number(value);
            } else if (key == "idle") {
                e.idleS = number(value);
            } else if (key == "db") {
                e.db = smallNumber(value);
            } else if (key == "flags") {
                e.flags = value;
            } else if (key == "cmd") {
                e.cmd = value;
            } else if (key == "sub") {
                e.sub = smallNumber(value);
            } else if (key == "psub") {
                e.psub = smallNumber(value);
            } else if (key == "ssub") {
                e.ssub = smallNumber(value);
            }
        }
        if (!hasId || e.addr.isEmpty())
            continue; // not a connection this version of the format describes: never guessed at
        entries << e;
    }
    return entries;
}

} // namespace LockScope
