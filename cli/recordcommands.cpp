#include "recordcommands.h"

#include "inspectcommands.h"
#include "terminationwatcher.h"

#include "base/quantities.h"
#include "monitor/lockmonitor.h"
#include "ops/auditlog.h"
#include "recording/recorder.h"
#include "recording/recordingstore.h"
#include "redis/bytesformat.h"

#include <QDateTime>
#include <QStandardPaths>

#include <cstdio>

namespace LockScope::Cli {

bool readRecorderOptions(const QCommandLineParser &parser, const Output &out, RecorderOptions *options)
{
    options->auditLogPath = AuditLog::path();
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
    connect(m_recorder, &Recorder::opened, this,
        [this, lockMonitor, path = RecordingStore::shownPath(options.path)](const QString &error) {
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
    connect(m_recorder, &Recorder::fellBehind, this, [this] {
        m_out.error(tr("warning: the recording fell behind the monitor; what it sees is left out (a gap in the "
                       "recording) until the recording catches up"));
    });
    auto *watcher = new TerminationWatcher(false, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, [this] {
        // What was gathered goes to disk before the exit.
        m_recorder->flush([this] { finish(ExitDone); });
    });
    m_recorder->start();
}

} // namespace LockScope::Cli
