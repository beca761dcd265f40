// redis-semaphore's Mutex (npm): mutex:<name>, a random UUID, docs/protocol/libraries.md#redis-semaphore.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>

namespace LockScope::Libraries {

namespace {

class RedisSemaphoreMutex : public StringLibrary
{
public:
    const char *id() const override { return "redis-semaphore"; }
    QList<QByteArray> defaultPatterns() const override { return { "mutex:*" }; }
    bool tokenFits(const QByteArray &token) const override { return TokenShape::uuid(token) && token.at(14) == '4'; }
    const char *tokenShape() const override
    {
        return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "a random UUID (version 4)");
    }
};

} // namespace

const StringLibrary &redisSemaphoreMutex()
{
    static const RedisSemaphoreMutex library;
    return library;
}

} // namespace LockScope::Libraries
