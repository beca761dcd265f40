#include "consolerecording.h"

#include "monitor/lockmonitor.h"
#include "ops/auditlog.h"
#include "recording/recorder.h"

#include <QAction>
#include <QLabel>
#include <QLocale>
#include <QSettings>
#include <QStandardPaths>

namespace LockScope {

namespace {
const QString kSetting = QStringLiteral("recording/lastHour");
}

ConsoleRecording::ConsoleRecording(const LockMonitor *monitor, QByteArray server, QString path, QObject *parent)
    : QObject(parent)
    , m_monitor(monitor)
    , m_server(std::move(server))
    , m_path(std::move(path))
    , m_toggle(new QAction(tr("&Record the last hour"), this))
    , m_label(new QLabel)
{
    m_toggle->setCheckable(true);
    m_toggle->setToolTip(tr("Keep what the console sees for an hour, in %1 (lockscope-cli history, at and explain read "
                            "it with --db)")
                             .arg(m_path));
    m_label->setToolTip(m_path);
    m_tick.setInterval(2000);
    connect(&m_tick, &QTimer::timeout, this, &ConsoleRecording::refresh);
    const bool on = QSettings().value(kSetting, true).toBool();
    m_toggle->setChecked(on);
    connect(m_toggle, &QAction::toggled, this, [this](bool checked) {
        QSettings().setValue(kSetting, checked);
        setOn(checked);
    });
    setOn(on);
}

ConsoleRecording::~ConsoleRecording()
{
    m_recorder.reset(); // what it gathered goes to disk first
    delete m_label; // not in a status bar yet; once there, the bar's
}

QLabel *ConsoleRecording::indicator() const
{
    return m_label;
}

QString ConsoleRecording::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/lockscope/console.sqlite");
}

void ConsoleRecording::setOn(bool on)
{
    m_error.clear();
    if (!on) {
        m_recorder.reset();
        m_tick.stop();
        refresh();
        return;
    }
    if (m_recorder)
        return;
    RecorderOptions options;
    options.path = m_path;
    options.retainMs = kRetainMs;
    options.maxBytes = kMaxBytes;
    options.auditLogPath = AuditLog::path();
    m_recorder = std::make_unique<Recorder>(m_monitor, m_server, options);
    connect(m_recorder.get(), &Recorder::opened, this, [this](const QString &error) {
        if (error.isEmpty())
            return refresh();
        // A file that is not a recording stays as it is, and the console says why it does not record.
        m_error = error;
        m_recorder.release()->deleteLater(); // it is the one telling: gone once it has told
        m_tick.stop();
        const QSignalBlocker quiet(m_toggle);
        m_toggle->setChecked(false);
        refresh();
    });
    connect(m_recorder.get(), &Recorder::writeFailed, this, [this](const QString &error) {
        m_error = error;
        refresh();
    });
    m_recorder->start();
    m_tick.start();
    refresh();
}

void ConsoleRecording::refresh()
{
    if (!m_label)
        return;
    if (!m_error.isEmpty()) {
        m_label->setText(tr("Not recording: %1").arg(m_error));
        return;
    }
    if (!m_recorder) {
        m_label->setText(tr("Not recording"));
        return;
    }
    m_label->setText(tr("● Recording the last hour · %1")
                         .arg(QLocale().formattedDataSize(m_recorder->dataBytes(), 1, QLocale::DataSizeSIFormat)));
}

} // namespace LockScope
