#include "recordcommands.h"

#include "inspectcommands.h"
#include "terminationwatcher.h"

#include "base/quantities.h"
#include "monitor/lockmonitor.h"
#include "recording/recorder.h"
#include "recording/recordingstore.h"
#include "redis/bytesformat.h"

#include <QDateTime>
#include <QStandardPaths>

#include <cstdio>

namespace LockScope::Cli {

namespace {
QString isoTime(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC).toString(Qt::ISODateWithMs);
}
} // namespace

bool readRecorderOptions(const QCommandLineParser &parser, const Output &out, RecorderOptions *options)
{
    options->path = parser.isSet(QStringLiteral("db"))
        ? parser.value(QStringLiteral("db"))
        : QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
            + QStringLiteral("/lockscope/recording.sqlite");
    if (parser.isSet(QStringLiteral("retain"))) {
        options->retainMs = parseDurationMs(parser.value(QStringLiteral("retain")));
        if (options->retainMs <= 0) {
            out.error(RecordCommand::tr("--retain takes a duration (7d, 12h, 90m)"));
            return false;
        }
    }
    if (parser.isSet(QStringLiteral("max-size"))) {
        options->maxBytes = parseSizeBytes(parser.value(QStringLiteral("max-size")));
        if (options->maxBytes < (1 << 20)) {
            out.error(RecordCommand::tr("--max-size takes a size of at least 1M (500M, 2G)"));
            return false;
        }
    }
    QList<QByteArray> redact;
    for (const QString &glob : parser.values(QStringLiteral("redact")))
        redact << glob.toUtf8();
    options->redaction = NameRedaction(redact);
    return true;
}

void RecordCommand::start()
{
    RecorderOptions options;
    if (!readRecorderOptions(m_parser, m_out, &options)) {
        finish(ExitUsage);
        return;
    }
    LockMonitor::Options monitor;
    if (!monitorOptions(&monitor))
        return;
    auto *lockMonitor = new LockMonitor(readOnly(m_connection), monitor, this);
    m_recorder = new Recorder(lockMonitor, m_connection.auditTarget().toUtf8(), options, this);
    connect(m_recorder, &Recorder::opened, this, [this, lockMonitor, path = options.path](const QString &error) {
        if (!error.isEmpty()) {
            m_out.error(error);
            finish(ExitUsage);
            return;
        }
        m_out.object({ { QStringLiteral("recording"), path } }, tr("recording to %1").arg(path));
        // Events count from the first complete pass on: said on standard error, as serve-metrics says it.
        connect(
            lockMonitor, &LockMonitor::snapshotFinished, this,
            [lockMonitor] {
                const QString text = tr("watching %n lock(s) via %1", nullptr, lockMonitor->lockCount())
                                         .arg(QString::fromLatin1(LockEventFeed::modeName(lockMonitor->mode())));
                std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
            },
            Qt::SingleShotConnection);
        lockMonitor->start();
    });
    connect(m_recorder, &Recorder::writeFailed, this,
        [this](const QString &error) { m_out.error(tr("warning: could not write the recording: %1").arg(error)); });
    auto *watcher = new TerminationWatcher(false, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, [this] {
        // What was gathered goes to disk before the exit.
        m_recorder->flush([this] { finish(ExitDone); });
    });
    m_recorder->start();
}

void HistoryCommand::start()
{
    const QByteArray name = lockName();
    const qint64 since
        = m_parser.isSet(QStringLiteral("since")) ? parseTimeMs(m_parser.value(QStringLiteral("since"))) : -1;
    const qint64 until
        = m_parser.isSet(QStringLiteral("until")) ? parseTimeMs(m_parser.value(QStringLiteral("until"))) : -1;
    if ((m_parser.isSet(QStringLiteral("since")) && since < 0)
        || (m_parser.isSet(QStringLiteral("until")) && until < 0)) {
        m_out.error(tr("--since and --until take ISO 8601 times with a zone (2026-11-26T03:12:00Z) or epoch ms"));
        finish(ExitUsage);
        return;
    }
    if (!m_parser.isSet(QStringLiteral("db"))) {
        m_out.error(tr("history needs --db FILE: the recording to read"));
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
    // A redacted name is stored hashed: asked by its name, found by its hash too.
    QList<RecordedEvent> events = store.history(name, since, until, &error);
    if (events.isEmpty() && error.isEmpty())
        events = store.history(NameRedaction::hashed(name), since, until, &error);
    if (!error.isEmpty()) {
        m_out.error(error);
        finish(ExitNotDone);
        return;
    }
    QStringList lines;
    for (const RecordedEvent &e : events) {
        QJsonObject o { { QStringLiteral("ts"), isoTime(e.timeMs) },
            { QStringLiteral("event"), QString::fromLatin1(e.type) }, { QStringLiteral("name"), jsonText(e.name) },
            { QStringLiteral("owner"), jsonText(e.owner) }, { QStringLiteral("count"), e.count },
            { QStringLiteral("ttl_ms"), e.ttlMs }, { QStringLiteral("source"), QStringLiteral("recording") } };
        if (!e.previousOwner.isEmpty())
            o.insert(QStringLiteral("previous_owner"), jsonText(e.previousOwner));
        if (e.lateMs >= 0)
            o.insert(QStringLiteral("late_ms"), e.lateMs);
        if (!e.kind.isEmpty())
            o.insert(QStringLiteral("kind"), QString::fromLatin1(e.kind));
        if (!e.library.isEmpty())
            o.insert(QStringLiteral("library"), QString::fromUtf8(e.library));
        if (!e.detail.isEmpty())
            o.insert(QStringLiteral("detail"), e.detail);
        if (m_out.json()) {
            m_out.jsonLine(o);
            continue;
        }
        lines << QStringLiteral("%1  %2  %3%4%5")
                     .arg(QDateTime::fromMSecsSinceEpoch(e.timeMs).toString(Qt::ISODateWithMs),
                         QString::fromLatin1(e.type),
                         e.owner.isEmpty() ? QStringLiteral("-") : escapeBytes(e.owner, 120),
                         e.count > 0 ? tr("  count %1").arg(e.count) : QString(),
                         e.detail.isEmpty() ? QString() : QStringLiteral("  (") + e.detail + QLatin1Char(')'));
    }
    if (!m_out.json())
        m_out.line(events.isEmpty() ? tr("%1: nothing recorded in that window").arg(escapeBytes(name, 200))
                                    : lines.join(QLatin1Char('\n')));
    finish(events.isEmpty() ? ExitNotDone : ExitDone);
}

} // namespace LockScope::Cli
