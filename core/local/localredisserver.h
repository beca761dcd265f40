#pragma once

#include <QDeadlineTimer>
#include <QObject>
#include <QStringList>
#include <QTemporaryDir>

#include <functional>

class QProcess;
class QTimer;

namespace LockScope {

class RedisProbe;

struct LocalRedisServerOptions
{
    QStringList extraArgs;
    // Written to a config file in the server's directory and given first (Sentinel needs a file it can rewrite).
    QByteArray configText;
    QString executable; // empty: redis-server on PATH
    // Tried first (0: none), so a restarted server can come back where its clients reconnect to.
    quint16 preferredPort = 0;
    // More listeners that need ports of their own (a TLS port, say). They are picked together with the
    // main port, so none collide, and extraPortArgs turns them into arguments for each attempt.
    int extraPortCount = 0;
    QList<quint16> preferredExtraPorts;
    std::function<QStringList(const QList<quint16> &extraPorts)> extraPortArgs;
    int readyTimeoutMs = 10000;
};

// A private redis-server child on a free loopback port, with its own temporary directory and no persistence:
// the app's --demo mode, the CLI's demo command, the benchmarks and the test fixtures all start one.
// The child gets a parent-death signal, so a crashed or killed parent leaves no server behind. That signal
// fires when the *thread* that started the child exits: start from a thread that outlives the server.
class LocalRedisServer : public QObject
{
    Q_OBJECT
public:
    // Declared outside the class so that "Options options = {}" works with its default member initializers.
    using Options = LocalRedisServerOptions;

    explicit LocalRedisServer(Options options = {}, QObject *parent = nullptr);
    explicit LocalRedisServer(QObject *parent)
        : LocalRedisServer(Options {}, parent)
    { }
    ~LocalRedisServer() override; // kills the child and waits

    // Blocks until the server answers PING (about 20 ms, at most readyTimeoutMs): for the CLI, benchmarks and
    // tests. After stop() or killHard() it first tries the previous ports again, so clients can reconnect.
    bool start(QString *error = nullptr);
    // For the GUI thread: emits ready() or failed(), never blocks on the network.
    void startAsync();
    // SIGTERM, then SIGKILL if the server has not exited within 5 s.
    void stop() { shutDown(true); }
    // SIGKILL: simulates a crash, no goodbye on open connections.
    void killHard() { shutDown(false); }

    bool isRunning() const;
    bool isReady() const { return m_state == State::Ready && isRunning(); }
    qint64 pid() const;
    quint16 port() const { return m_port; }
    QList<quint16> extraPorts() const { return m_extraPorts; }
    QString url() const; // redis://127.0.0.1:P
    QString dir() const;
    QString logFile() const;
    QString logTail(int lines = 40) const;
    const Options &options() const { return m_options; }

signals:
    void ready();
    void failed(const QString &error);
    // The server went away without stop() or killHard(), after it had been ready.
    void exitedUnexpectedly(const QString &error);

private:
    enum class State { Idle, StartingBlocking, StartingAsync, Ready };

    bool prepare(QString *error);
    bool pickPorts(int attempt, QString *error);
    bool launch(QString *error);
    bool waitUntilReady(QString *error);
    void shutDown(bool graceful);
    void discardProcess(bool graceful);
    void onProcessFinished();
    void asyncAttempt();
    void asyncProbe();
    void asyncProbeFailed(const QString &detail);
    void asyncFail(const QString &error);
    void endAsyncProbe();
    QString exitedEarlyMessage() const;
    QString notReadyMessage(const QString &lastProbe) const;
    QString withLog(const QString &message) const;

    Options m_options;
    QTemporaryDir m_dir;
    QString m_executable;
    QProcess *m_process = nullptr;
    State m_state = State::Idle;
    quint16 m_port = 0;
    QList<quint16> m_extraPorts;
    int m_attempt = 0;
    // The async start: one probe socket at a time, retried by a single timer until the deadline.
    RedisProbe *m_probe = nullptr;
    QTimer *m_probeTimer = nullptr;
    QDeadlineTimer m_deadline;
    QString m_lastProbe;
};

} // namespace LockScope
