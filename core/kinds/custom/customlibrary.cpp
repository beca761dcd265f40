// A team's own lock scheme, read through its owner template (kinds/custom/ownertemplate.h,
// docs/protocol/templates.md). Its keys are declared with the template's glob; its tokens have no shape of their own,
// so it never claims a key by shape.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

class Custom : public StringLibrary
{
public:
    const char *id() const override { return "custom"; }
    bool tokenFits(const QByteArray &) const override { return false; }
    const char *tokenShape() const override
    {
        return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "what its owner template declares");
    }
    // Home-grown locks are often taken without a lease: one that never expires is still a lock, with a warning.
    bool mayNeverExpire() const override { return true; }
};

} // namespace

const StringLibrary &custom()
{
    static const Custom library;
    return library;
}

} // namespace LockScope::Libraries
