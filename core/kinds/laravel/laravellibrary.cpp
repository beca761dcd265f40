// Laravel's Cache::lock: <prefixes><name>, Str::random(16) as owner, docs/protocol/libraries.md#laravel.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

class Laravel : public StringLibrary
{
public:
    const char *id() const override { return "laravel"; }
    // Its own locks, behind the Redis and cache prefixes (laravel_database_laravel_cache_... by default).
    QList<QByteArray> defaultPatterns() const override
    {
        return { "*laravel_unique_job:*", "*laravel-queue-overlap:*", "*framework/schedule-*" };
    }
    bool tokenFits(const QByteArray &token) const override { return TokenShape::alphanumeric(token, 16); }
    const char *tokenShape() const override
    {
        return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "16 letters and digits");
    }
    bool mayNeverExpire() const override { return true; } // a lock of 0 seconds never expires
};

} // namespace

const StringLibrary &laravel()
{
    static const Laravel library;
    return library;
}

} // namespace LockScope::Libraries
