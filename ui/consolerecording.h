#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>

class QAction;
class QLabel;

namespace LockScope {

class LockMonitor;
class Recorder;

// The console keeps the last hour (docs/recording.md): what its monitor sees goes into a recording of its own, on by
// default, so that the question "what just happened?" has an answer although nobody started a recorder. A checkable
// action turns it on and off (remembered), and a status-bar label says whether it records and how big the file is.
// Its own file, not serve-metrics' default one: an hour's retention must never prune a daemon's week.
class ConsoleRecording : public QObject
{
    Q_OBJECT
public:
    ConsoleRecording(const LockMonitor *monitor, QByteArray server, QString path, QObject *parent = nullptr);
    ~ConsoleRecording() override;

    static QString defaultPath(); // $XDG_DATA_HOME/lockscope/console.sqlite
    static constexpr qint64 kRetainMs = 3600 * 1000;
    static constexpr qint64 kMaxBytes = 256LL << 20;

    QAction *toggle() const { return m_toggle; }
    QLabel *indicator() const;
    bool isRecording() const { return m_recorder != nullptr; }
    QString path() const { return m_path; }

private:
    void setOn(bool on);
    void refresh();

    const LockMonitor *m_monitor;
    QByteArray m_server;
    QString m_path;
    std::unique_ptr<Recorder> m_recorder;
    QAction *m_toggle;
    QPointer<QLabel> m_label; // the status bar's once shown there
    QTimer m_tick;
    QString m_error;
};

} // namespace LockScope
