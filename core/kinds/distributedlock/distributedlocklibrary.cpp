// DistributedLock.Redis (.NET, madelson): the name as given, "<machine>_<pid>_<guid>" as lock id,
// docs/protocol/libraries.md#distributedlock.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

// Splits "<machine>_<pid>_<32 hex>" from the right: a machine name may hold '_' itself.
bool split(const QByteArray &token, QByteArray *machine, qint64 *pid)
{
    const int last = token.lastIndexOf('_');
    if (last < 0 || !TokenShape::hex(token.mid(last + 1).toLower(), 32))
        return false;
    const int middle = token.lastIndexOf('_', last - 1);
    if (middle <= 0)
        return false;
    bool ok = false;
    const qint64 n = token.mid(middle + 1, last - middle - 1).toLongLong(&ok);
    if (!ok || n <= 0)
        return false;
    *machine = token.left(middle);
    *pid = n;
    return true;
}

class DistributedLock : public StringLibrary
{
public:
    const char *id() const override { return "distributedlock"; }
    bool tokenFits(const QByteArray &token) const override
    {
        QByteArray machine;
        qint64 pid = 0;
        return split(token, &machine, &pid);
    }
    const char *tokenShape() const override
    {
        return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "<machine>_<process id>_<32 hex digits>");
    }
    void describeHolder(const QByteArray &token, LockHolder &holder) const override
    {
        split(token, &holder.host, &holder.pid);
    }
};

} // namespace

const StringLibrary &distributedLock()
{
    static const DistributedLock library;
    return library;
}

} // namespace LockScope::Libraries
