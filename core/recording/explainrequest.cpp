#include "recording/explainrequest.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QRegularExpression>

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::ExplainRequest", text);
}
} // namespace

qint64 ExplainRequest::timeIn(const QString &text)
{
    static const QRegularExpression stamp(
        QStringLiteral(R"((\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:[.,](\d{1,9}))?\s?(Z|[+-]\d{2}:?\d{2})?)"));
    const QRegularExpressionMatch m = stamp.match(text);
    if (!m.hasMatch())
        return -1;
    const QDate date = QDate::fromString(m.captured(1), Qt::ISODate);
    const QTime time = QTime::fromString(m.captured(2), QStringLiteral("HH:mm:ss"));
    if (!date.isValid() || !time.isValid())
        return -1;
    const int ms = m.captured(3).isEmpty() ? 0 : m.captured(3).left(3).leftJustified(3, QLatin1Char('0')).toInt();
    const QString zone = m.captured(4);
    QDateTime at;
    if (zone.isEmpty()) {
        at = QDateTime(date, time.addMSecs(ms)); // a log without a zone writes local time
    } else if (zone == QLatin1String("Z")) {
        at = QDateTime(date, time.addMSecs(ms), Qt::UTC);
    } else {
        QString digits = zone.mid(1);
        digits.remove(QLatin1Char(':'));
        const int seconds = (digits.left(2).toInt() * 3600 + digits.mid(2, 2).toInt() * 60)
            * (zone.startsWith(QLatin1Char('-')) ? -1 : 1);
        at = QDateTime(date, time.addMSecs(ms), Qt::OffsetFromUTC, seconds);
    }
    return at.isValid() ? at.toMSecsSinceEpoch() : -1;
}

bool ExplainRequest::parse(const QString &text, ExplainRequest *r)
{
    // Redisson, every version since 3.10: an unlock (of a lock, a read or write lock, a fair lock) whose holder field
    // is not there. The id is the client's, the thread id the JVM's: together they are the hash field.
    static const QRegularExpression redissonUnlock(QStringLiteral(
        R"(attempt to unlock (?:\w+ )?lock, not locked by current thread by node id: ([0-9A-Fa-f-]{36}) thread-id: (\d+))"));
    // Redisson's watchdog, logging a renewal that failed: it names the lock.
    static const QRegularExpression redissonRenewal(QStringLiteral(R"(Can't update lock (\S+) expiration)"));
    // python-redis-lock: the key ("lock:" and the name) is in the message.
    static const QRegularExpression pythonRedisLock(
        QStringLiteral(R"(Lock (\S+) is not acquired or it already expired)"));
    static const QRegularExpression redisPy(
        QStringLiteral(R"(Cannot (release|extend|reacquire) a lock that's no longer owned)"));
    static const QRegularExpression redsync(
        QStringLiteral(R"(failed to (unlock|extend)(?:, lock was already expired| lock))"));
    static const QRegularExpression redislock(QStringLiteral(R"(redislock: lock not held)"));

    r->aroundMs = timeIn(text);
    QRegularExpressionMatch m = redissonUnlock.match(text);
    if (m.hasMatch()) {
        r->owner = (m.captured(1) + QLatin1Char(':') + m.captured(2)).toLatin1();
        r->library = "redisson";
        r->recognised = tr("Redisson's unlock of a lock its thread does not hold");
        r->unlockFailed = true;
        return true;
    }
    if ((m = redissonRenewal.match(text)).hasMatch()) {
        r->lock = m.captured(1).toUtf8();
        r->library = "redisson";
        r->recognised = tr("Redisson's watchdog failing to renew a lock");
        return true;
    }
    if ((m = pythonRedisLock.match(text)).hasMatch()) {
        QString key = m.captured(1);
        if (key.size() > 1 && (key.startsWith(QLatin1Char('\'')) || key.startsWith(QLatin1Char('"'))))
            key = key.mid(1, key.size() - 2);
        r->lock = key.toUtf8();
        r->library = "python-redis-lock";
        r->recognised = tr("python-redis-lock's release or extend of a lock it no longer holds");
        r->unlockFailed = true;
        return true;
    }
    if ((m = redisPy.match(text)).hasMatch()) {
        // redbeat's scheduler lock is redis-py's, under its own key unless configured otherwise.
        const bool redbeat = text.contains(QLatin1String("redbeat"), Qt::CaseInsensitive);
        if (redbeat && r->lock.isEmpty())
            r->lock = "redbeat::lock";
        r->library = redbeat ? "redbeat" : "redis-py";
        r->recognised
            = redbeat ? tr("redbeat's scheduler lock, no longer owned") : tr("redis-py's lock, no longer owned");
        r->unlockFailed = true;
        return true;
    }
    if ((m = redsync.match(text)).hasMatch()) {
        r->library = "redsync";
        r->recognised = tr("redsync's unlock or extend of a lock that had expired");
        r->unlockFailed = true;
        return true;
    }
    if ((m = redislock.match(text)).hasMatch()) {
        r->library = "redislock";
        r->recognised = tr("bsm/redislock's release of a lock no longer held");
        r->unlockFailed = true;
        return true;
    }
    return false;
}

} // namespace LockScope
