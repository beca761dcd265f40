// node-redlock (npm redlock): the name as given, 16 random bytes in hex, docs/protocol/libraries.md#node-redlock.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

class NodeRedlock : public StringLibrary
{
public:
    const char *id() const override { return "node-redlock"; }
    bool tokenFits(const QByteArray &token) const override { return TokenShape::hex(token, 32); }
    const char *tokenShape() const override { return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "32 hex digits"); }
};

} // namespace

const StringLibrary &nodeRedlock()
{
    static const NodeRedlock library;
    return library;
}

} // namespace LockScope::Libraries
