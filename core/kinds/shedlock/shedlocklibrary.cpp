// ShedLock's Redis providers (Spring Data, Jedis, Lettuce): one key per scheduled job,
// docs/protocol/libraries.md#shedlock.
#include "kinds/string/librarylist.h"
#include "kinds/string/stringlibrary.h"

#include <QCoreApplication>
#include <QDateTime>

namespace LockScope::Libraries {

namespace {

class ShedLock : public StringLibrary
{
public:
    const char *id() const override { return "shedlock"; }
    // job-lock:<environment>:<job name>; the environment is "default" unless the provider was given one.
    QList<QByteArray> defaultPatterns() const override { return { "job-lock:*" }; }
    bool tokenFits(const QByteArray &token) const override
    {
        return token.startsWith("ADDED:") && token.indexOf('@') > 6;
    }
    // A job that ends before lockAtLeastFor: SET key value XX PX <the rest of it>.
    bool coolsDownAfterUnlock() const override { return true; }
    const char *tokenShape() const override
    {
        return QT_TRANSLATE_NOOP("LockScope::LockClassifier", "ADDED:<time>@<host>");
    }
    // "ADDED:<ISO instant>@<hostname>", newer versions add ":<uuid>" after the host.
    void describeHolder(const QByteArray &token, LockHolder &holder) const override
    {
        const int at = token.indexOf('@');
        if (at < 0)
            return;
        const QDateTime since = QDateTime::fromString(QString::fromLatin1(token.mid(6, at - 6)), Qt::ISODateWithMs);
        if (since.isValid())
            holder.sinceMs = since.toMSecsSinceEpoch();
        QByteArray host = token.mid(at + 1);
        const int colon = host.lastIndexOf(':');
        if (colon >= 0 && TokenShape::uuid(host.mid(colon + 1)))
            host.truncate(colon);
        holder.host = host;
    }
};

} // namespace

const StringLibrary &shedLock()
{
    static const ShedLock library;
    return library;
}

} // namespace LockScope::Libraries
