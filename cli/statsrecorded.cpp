// stats --db: the statistics of a window of a recording, as stats would have printed them had it watched then.
#include "statscommands.h"

#include "base/quantities.h"
#include "recording/recordedstats.h"
#include "recording/recordingstore.h"
#include "stats/statsjson.h"

#include <QDateTime>
#include <QJsonObject>

namespace LockScope::Cli {

void StatsCommand::printRecorded()
{
    if (!readLimit(-1, &m_limit)) {
        finish(ExitUsage);
        return;
    }
    const bool hasSince = m_parser.isSet(QStringLiteral("since")), hasUntil = m_parser.isSet(QStringLiteral("until"));
    const qint64 since = hasSince ? parseTimeMs(m_parser.value(QStringLiteral("since"))) : -1;
    const qint64 until = hasUntil ? parseTimeMs(m_parser.value(QStringLiteral("until"))) : -1;
    if ((hasSince && since < 0) || (hasUntil && until < 0)) {
        m_out.error(tr("--since and --until take ISO 8601 times with a zone (2026-11-26T03:12:00Z) or epoch ms"));
        finish(ExitUsage);
        return;
    }
    RecordingStore store;
    QString error;
    if (!store.open(m_parser.value(QStringLiteral("db")), false, &error)) {
        m_out.error(error);
        finish(ExitUsage);
        return;
    }
    RecordedStatistics recorded;
    if (!RecordedStatistics::fold(store, keyPattern(), since, until, &recorded, &error)) {
        m_out.error(error);
        finish(ExitNotDone);
        return;
    }
    // What a recording does not keep is not made up: the waiters polling saw, and who subscribed.
    const QStringList blind { tr("from a recording: waiters and waits are not recorded, only the holds' events") };
    if (m_out.json()) {
        StatsReport report;
        report.nowMs = recorded.untilMs;
        report.mode = "recording";
        report.blindSpots = blind;
        report.lockLimit = m_limit;
        QJsonObject o = statsReportJson(recorded.statistics, report);
        o.insert(QStringLiteral("source"), QStringLiteral("recording"));
        o.insert(QStringLiteral("since"),
            QDateTime::fromMSecsSinceEpoch(recorded.fromMs, Qt::UTC).toString(Qt::ISODateWithMs));
        o.insert(QStringLiteral("until"),
            QDateTime::fromMSecsSinceEpoch(recorded.untilMs, Qt::UTC).toString(Qt::ISODateWithMs));
        o.insert(QStringLiteral("gaps"), recorded.gaps);
        m_out.jsonLine(o);
    } else {
        const QString head
            = tr("recording %1: %2 to %3, %n event(s), %4 gap(s) in what was seen", nullptr,
                int(qMin<qint64>(recorded.events, INT_MAX)))
                  .arg(store.path(), QDateTime::fromMSecsSinceEpoch(recorded.fromMs).toString(Qt::ISODateWithMs),
                      QDateTime::fromMSecsSinceEpoch(recorded.untilMs).toString(Qt::ISODateWithMs))
                  .arg(recorded.gaps);
        m_out.line(head + QLatin1Char('\n')
            + statsTable(recorded.statistics, recorded.untilMs, m_limit, nullptr, blind).chopped(1));
    }
    finish(ExitDone);
}

} // namespace LockScope::Cli
