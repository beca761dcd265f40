// bsm/redislock (Go): the name as given, 16 random bytes in unpadded base64url, then the caller's metadata if any,
// docs/protocol/libraries.md#bsmredislock.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

class BsmRedislock : public StringLibrary
{
public:
    const char *id() const override { return "bsm-redislock"; }
    bool tokenFits(const QByteArray &token) const override { return TokenShape::base64(token, 22, true); }
    const char *tokenShape() const override
    {
        return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "22 characters of base64url");
    }
};

} // namespace

const StringLibrary &bsmRedislock()
{
    static const BsmRedislock library;
    return library;
}

} // namespace LockScope::Libraries
