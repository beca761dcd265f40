#pragma once

#include "guide/guideclient.h"
#include "guide/redissonclient.h"

#include <QJsonObject>
#include <QProcess>

#include <functional>

namespace LockScope::Guide {

// An emulated Redisson client in a child process of its own (runGuideActor), so that a teacher can kill it with
// SIGKILL (G11: its connections close, its watchdog dies with it) or freeze it with SIGSTOP and thaw it with SIGCONT
// (G16: a paused JVM whose connections stay open). The child is the same RedissonClient; this side forwards the calls
// and turns the child's records into the player's time.
class ProcessClient : public GuideClient
{
    Q_OBJECT
public:
    // program + arguments start the child (`lockscope-cli guide-actor`); origin() is the player's clock's start on
    // the machine's monotonic clock, which the child's records are timed on.
    ProcessClient(ConnectionOptions connection, RedissonClient::Options options, QString program, QStringList arguments,
        std::function<qint64()> origin, QObject *parent = nullptr);
    ~ProcessClient() override;

    void start();
    qint64 pid() const { return m_pid; }

    QByteArray owner(qint64 thread) const override;
    void lock(qint64 thread, const QByteArray &name, qint64 leaseMs) override;
    void tryLock(qint64 thread, const QByteArray &name, qint64 waitMs, qint64 leaseMs) override;
    void unlock(qint64 thread, const QByteArray &name, bool dropReply, std::optional<UnlockEffect> effect) override;
    void retryUnlock(qint64 thread, const QByteArray &name) override;
    void forceUnlock(qint64 thread, const QByteArray &name) override;
    void raw(qint64 thread, const QList<QByteArray> &argv) override;
    void stop() override;
    bool sendSignal(Signal signal) override;
    bool startsLater() const override { return true; }

private:
    void send(const QJsonObject &command);
    void call(const QString &op, qint64 thread, const QByteArray &name, QJsonObject more = {});
    void onOutput();
    void onFinished();

    ConnectionOptions m_connection;
    RedissonClient::Options m_options;
    QString m_program;
    QStringList m_arguments;
    std::function<qint64()> m_origin;
    QProcess *m_process;
    QByteArray m_buffer;
    qint64 m_pid = 0;
    bool m_ready = false;
    bool m_killed = false; // by us: its end is the scenario's point, not a failure
};

} // namespace LockScope::Guide
