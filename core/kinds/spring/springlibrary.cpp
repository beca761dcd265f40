// Spring Integration's RedisLockRegistry: <registryKey>:<path>, the registry's UUID as every lock's value,
// docs/protocol/libraries.md#spring-integration.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

// The registry key a declared pattern names: its literal start, without the ':' before the lock's path.
QByteArray registryKey(const QByteArray &name, const QByteArray &glob)
{
    QByteArray literal;
    for (char c : glob) {
        if (c == '*' || c == '?' || c == '[' || c == '\\')
            break;
        literal += c;
    }
    if (literal.endsWith(':'))
        literal.chop(1);
    if (!literal.isEmpty())
        return literal;
    const int colon = name.indexOf(':');
    return colon > 0 ? name.left(colon) : QByteArray();
}

class Spring : public StringLibrary
{
public:
    const char *id() const override { return "spring"; }
    // The registry key is the application's, required and without a default: its names are declared.
    bool tokenFits(const QByteArray &token) const override { return TokenShape::uuid(token); }
    const char *tokenShape() const override
    {
        return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "a UUID (one per registry)");
    }
    // A registry in pub/sub mode publishes the key when it unlocks: current versions on "<registryKey>-channel:<key>"
    // (waiters PSUBSCRIBE "<registryKey>-channel:*"), 5.5 to 6.x on "<registryKey>-channel" itself. Both are sent: a
    // spin-mode registry listens to neither and polls every 100 ms.
    void wakeUps(const QByteArray &name, const QByteArray &declaredGlob, StringWakeUps &out) const override
    {
        const QByteArray registry = registryKey(name, declaredGlob);
        if (registry.isEmpty())
            return;
        out.publishes.append({ registry + "-channel:" + name, name });
        out.publishes.append({ registry + "-channel", name });
    }
};

} // namespace

const StringLibrary &spring()
{
    static const Spring library;
    return library;
}

} // namespace LockScope::Libraries
