#include "watchcommand.h"

#include "monitor/lockmonitor.h"
#include "ops/auditrecord.h"
#include "ops/keyspaceevents.h"
#include "redis/bytesformat.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"
#include "terminationwatcher.h"

#include <QDateTime>
#include <QJsonObject>
#include <QRegularExpression>

#include <cstdio>

namespace LockScope::Cli {

namespace {
QString modeText(LockEventFeed::Mode mode, int intervalMs)
{
    switch (mode) {
    case LockEventFeed::Mode::KeyspaceEvents:
        return WatchCommand::tr("keyspace events");
    case LockEventFeed::Mode::PubSubPolling:
        return WatchCommand::tr("wake-up messages, and a re-scan every %1 ms").arg(intervalMs);
    case LockEventFeed::Mode::Polling:
        return WatchCommand::tr("a re-scan every %1 ms only").arg(intervalMs);
    case LockEventFeed::Mode::Starting:
        break;
    }
    return WatchCommand::tr("starting");
}
} // namespace

void WatchCommand::status(const QString &text) const
{
    if (m_out.json())
        std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
    else
        m_out.line(text);
}

void WatchCommand::start()
{
    auto *watcher = new TerminationWatcher(false, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, [this] { finish(ExitDone); });
    if (!m_parser.isSet(QStringLiteral("enable-keyspace-events"))) {
        startMonitor();
        return;
    }
    // The one write watch can do, and only when asked: switch on the notifications the monitor needs. Refused, with
    // nothing sent, where writes are (in the operation): a read-only connection is a promise not to change the
    // server's configuration.
    if (!m_connection.readOnly && !auditable(QStringLiteral("enable-keyspace-events")))
        return;
    Ops::enableKeyspaceEvents(m_connection, m_connection.auditTarget(), this, [this](const KeyspaceEventsDone &d) {
        if (d.audited)
            audit(d.record);
        if (d.error.isError()) {
            finish(m_out.fail(d.error));
            return;
        }
        status(tr("keyspace events switched on (notify-keyspace-events now includes K, h, $, z, g and x)"));
        startMonitor();
    });
}

void WatchCommand::startMonitor()
{
    LockMonitor::Options options;
    if (!monitorOptions(&options)) {
        finish(ExitUsage);
        return;
    }
    m_monitor = new LockMonitor(m_connection, options, this);
    const int interval = options.rescanIntervalMs;
    connect(m_monitor, &LockMonitor::snapshotFinished, this, [this, options, interval](const RedisError &error) {
        if (error.isError()) {
            finish(m_out.fail(error));
            return;
        }
        status(tr("watching %n lock(s) matching %1 via %2", nullptr, m_monitor->lockCount())
                   .arg(escapeBytes(options.pattern, 200), modeText(m_monitor->mode(), interval)));
    });
    connect(m_monitor, &LockMonitor::modeChanged, this, [this, interval](LockEventFeed::Mode mode) {
        const QString reason = m_monitor->modeReason();
        status(tr("updates via %1%2")
                   .arg(modeText(mode, interval), reason.isEmpty() ? QString() : QStringLiteral(" (") + reason + ')'));
    });
    connect(m_monitor, &LockMonitor::errorOccurred, this,
        [this](const RedisError &error) { m_out.error(tr("monitor: %1").arg(error.message())); });
    connect(m_monitor, &LockMonitor::eventsOccurred, this, [this](const QList<LockEvent> &events) {
        for (const LockEvent &e : events) {
            QJsonObject extra { { QStringLiteral("ts"),
                QDateTime::fromMSecsSinceEpoch(e.timeMs, Qt::UTC).toString(Qt::ISODateWithMs) } };
            if (!e.previousOwner.isEmpty())
                extra.insert(QStringLiteral("previous_owner"), Output::jsonText(e.previousOwner));
            if (!e.detail.isEmpty())
                extra.insert(QStringLiteral("detail"), e.detail);
            if (e.lateMs >= 0)
                extra.insert(QStringLiteral("late_ms"), e.lateMs);
            const QString human
                = QStringLiteral("%1  %2  %3  %4%5%6")
                      .arg(QDateTime::fromMSecsSinceEpoch(e.timeMs).toString(QStringLiteral("HH:mm:ss.zzz")),
                          QString::fromLatin1(LockEvent::typeName(e.type)), escapeBytes(e.name, 200),
                          e.owner.isEmpty() ? QStringLiteral("-") : escapeBytes(e.owner, 120),
                          (e.count > 0 ? tr("  count %1").arg(e.count) : QString())
                              + (e.ttlMs >= 0 ? tr("  ttl %1 ms").arg(e.ttlMs) : QString()),
                          e.detail.isEmpty() ? QString() : QStringLiteral("  (") + e.detail + ')');
            m_out.event(
                QString::fromLatin1(LockEvent::typeName(e.type)), e.name, e.owner, e.count, e.ttlMs, human, extra);
        }
    });
    // Warnings that arrive without an event of their own (renewals failing) are said once each. Their figures (the
    // TTL now) change with every update, so a warning is known by its text without them.
    connect(m_monitor, &LockMonitor::locksChanged, this, [this](const LockMonitor::Changes &changes) {
        static const QRegularExpression figures(QStringLiteral("\\d+"));
        for (const QByteArray &name : changes.updated) {
            const LockRecord *r = m_monitor->record(name);
            QStringList &said = m_warned[name];
            QStringList now;
            for (const QString &w : r->warnings()) {
                now << QString(w).replace(figures, QStringLiteral("#"));
                if (!said.contains(now.last()))
                    m_out.error(tr("warning: %1: %2").arg(escapeBytes(name, 200), w));
            }
            said = now;
        }
        for (const QByteArray &name : changes.removed)
            m_warned.remove(name);
    });
    m_monitor->start();
}

} // namespace LockScope::Cli
