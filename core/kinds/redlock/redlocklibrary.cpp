// pottery's Redlock (Python) and RedLock.net: redlock:<resource>, a UUID, docs/protocol/libraries.md#redlock-keys.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

class Redlock : public StringLibrary
{
public:
    const char *id() const override { return "redlock"; }
    QList<QByteArray> defaultPatterns() const override { return { "redlock:*" }; }
    bool tokenFits(const QByteArray &token) const override { return TokenShape::uuid(token); }
    const char *tokenShape() const override { return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "a UUID"); }
};

} // namespace

const StringLibrary &redlock()
{
    static const Redlock library;
    return library;
}

} // namespace LockScope::Libraries
