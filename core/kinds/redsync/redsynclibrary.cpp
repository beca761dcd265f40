// go-redsync: the name as given, 16 random bytes in base64 as token, docs/protocol/libraries.md#go-redsync.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

class Redsync : public StringLibrary
{
public:
    const char *id() const override { return "redsync"; }
    bool tokenFits(const QByteArray &token) const override
    {
        return TokenShape::base64(token.left(22), 22, false) && token.size() == 24 && token.endsWith("==");
    }
    const char *tokenShape() const override
    {
        return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "24 characters of base64 ending in ==");
    }
};

} // namespace

const StringLibrary &redsync()
{
    static const Redsync library;
    return library;
}

} // namespace LockScope::Libraries
