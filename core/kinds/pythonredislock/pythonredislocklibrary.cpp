// python-redis-lock: lock:<name> and the signal list lock-signal:<name>, docs/protocol/libraries.md#python-redis-lock.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

class PythonRedisLock : public StringLibrary
{
public:
    const char *id() const override { return "python-redis-lock"; }
    QList<QByteArray> defaultPatterns() const override { return { "lock:*" }; }
    // b64encode(urandom(18)): 24 characters, no padding.
    bool tokenFits(const QByteArray &token) const override { return TokenShape::base64(token, 24, false); }
    const char *tokenShape() const override
    {
        return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "24 characters of base64 without padding");
    }
    bool mayNeverExpire() const override { return true; } // expire=None is its default
    // Its release pushes one element on the signal list for a BLPOP waiter (for ever blocked when the lock has no
    // TTL), the list expiring a second later. Done for every lock:* name, as harmless to the others as it is needed
    // here.
    void wakeUps(const QByteArray &name, const QByteArray &, StringWakeUps &out) const override
    {
        if (name.startsWith("lock:"))
            out.signalLists << "lock-signal:" + name.mid(5);
    }
};

} // namespace

const StringLibrary &pythonRedisLock()
{
    static const PythonRedisLock library;
    return library;
}

} // namespace LockScope::Libraries
