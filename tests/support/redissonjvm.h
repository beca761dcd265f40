#pragma once

// Redisson itself, in a JVM of its own (tests/interop/redisson: the driver scripts/dev setup builds with Maven for
// each pinned Redisson version), driven over JSON lines. Each request names a driver thread: a real Java thread, since
// Redisson writes the calling thread's id into the lock and unlocks only on that thread. Replies come when the call
// returns, so a lock() that waits replies once it has the lock.
//
// A JVM that is missing, does not start, dies (unless the test killed it) or stops answering fails the test where it
// happened: a suite that passed without meeting Redisson would prove nothing.
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <optional>

#include <signal.h>

namespace LockScope::Test {

class RedissonJvm
{
public:
    RedissonJvm() = default;
    RedissonJvm(const RedissonJvm &) = delete;
    RedissonJvm &operator=(const RedissonJvm &) = delete;
    ~RedissonJvm()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.write("{\"op\":\"exit\"}\n");
        if (!m_process.waitForFinished(20000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    // $LOCKSCOPE_JAVA, else the java found when the build was configured, else java on the PATH.
    static QString java()
    {
        const QString fromEnv = qEnvironmentVariable("LOCKSCOPE_JAVA");
        const QString configured = QStringLiteral(LOCKSCOPE_JAVA);
        const QString java = !fromEnv.isEmpty() ? fromEnv
            : !configured.isEmpty()             ? configured
                                                : QStandardPaths::findExecutable(QStringLiteral("java"));
        return !java.isEmpty() && QFileInfo(java).isExecutable() ? java : QString();
    }
    static QString driverDir(const QString &version)
    {
        return QStringLiteral(LOCKSCOPE_INTEROP_DIR "/redisson/target-") + version;
    }

    // Connects Redisson `version` to url; watchdogTimeoutMs > 0 sets Config.lockWatchdogTimeout. Fails the test
    // (and returns false) when Java or the built driver is missing, or the client never said it was ready.
    bool start(const QString &version, const QString &url, qint64 watchdogTimeoutMs = 0)
    {
        m_version = version;
        const QString javaPath = java();
        const QString dir = driverDir(version);
        if (javaPath.isEmpty()) {
            QTest::qFail("no java: install a JDK (scripts/dev setup)", __FILE__, __LINE__);
            return false;
        }
        if (!QFileInfo::exists(dir + QStringLiteral("/classes/lockscope/interop/Driver.class"))) {
            QTest::qFail(
                qPrintable(
                    QStringLiteral("Redisson %1's driver is not built in %2: run scripts/dev setup").arg(version, dir)),
                __FILE__, __LINE__);
            return false;
        }
        QStringList args { QStringLiteral("-Xss512k"), QStringLiteral("-XX:+UseSerialGC"), QStringLiteral("-cp"),
            dir + QStringLiteral("/classes:") + dir + QStringLiteral("/lib/*"),
            QStringLiteral("lockscope.interop.Driver"), url };
        if (watchdogTimeoutMs > 0)
            args << QString::number(watchdogTimeoutMs);
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(javaPath, args);
        if (!m_process.waitForStarted(30000)) {
            QTest::qFail(
                qPrintable(QStringLiteral("java did not start: ") + m_process.errorString()), __FILE__, __LINE__);
            return false;
        }
        const std::optional<QJsonObject> ready = next(120000);
        if (!ready || ready->value(QStringLiteral("event")).toString() != QLatin1String("ready")) {
            QTest::qFail(qPrintable(QStringLiteral("Redisson %1 never said it was ready; stderr: %2")
                                        .arg(version, QString::fromUtf8(m_process.readAllStandardError().right(3000)))),
                __FILE__, __LINE__);
            return false;
        }
        m_clientId = ready->value(QStringLiteral("client_id")).toString().toUtf8();
        return true;
    }

    QByteArray clientId() const { return m_clientId; }
    QString version() const { return m_version; }

    // Sends a request (op, thread, kind, name, lease, wait, permits, permit, count); returns its id.
    int send(QJsonObject request)
    {
        const int id = ++m_lastId;
        request.insert(QStringLiteral("id"), id);
        if (!request.contains(QStringLiteral("thread")))
            request.insert(QStringLiteral("thread"), QStringLiteral("main"));
        m_process.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
        return id;
    }

    // The reply to request id, waiting up to timeoutMs; nothing (and the test has failed) when none came.
    std::optional<QJsonObject> reply(int id, int timeoutMs = 60000)
    {
        const QDeadlineTimer deadline(timeoutMs);
        while (!m_replies.contains(id)) {
            const std::optional<QJsonObject> line = next(int(qMax<qint64>(0, deadline.remainingTime())));
            if (!line) {
                QTest::qFail(
                    qPrintable(QStringLiteral("Redisson %1 did not answer request %2 within %3 ms%4")
                                   .arg(m_version)
                                   .arg(id)
                                   .arg(timeoutMs)
                                   .arg(m_process.state() == QProcess::NotRunning ? QStringLiteral(" (its JVM ended: ")
                                               + QString::fromUtf8(m_process.readAllStandardError().right(3000))
                                               + QLatin1Char(')')
                                                                                  : QString())),
                    __FILE__, __LINE__);
                return std::nullopt;
            }
            m_replies.insert(line->value(QStringLiteral("id")).toInt(), *line);
        }
        return m_replies.take(id);
    }

    // Whether request id has been answered by now, without waiting.
    bool answered(int id)
    {
        while (m_process.canReadLine() || m_process.waitForReadyRead(0)) {
            if (!m_process.canReadLine())
                break;
            const QJsonObject line = QJsonDocument::fromJson(m_process.readLine()).object();
            m_replies.insert(line.value(QStringLiteral("id")).toInt(), line);
        }
        return m_replies.contains(id);
    }

    // One request and its reply: the reply's object, or an empty one (and the test has failed).
    QJsonObject call(const QJsonObject &request, int timeoutMs = 60000)
    {
        return reply(send(request), timeoutMs).value_or(QJsonObject());
    }

    qint64 pid() const { return m_process.processId(); }

    // SIGSTOP, as a long GC pause or a debugger would stop it: its connections stay open, its watchdog stops until
    // thaw() (SIGCONT). A frozen JVM is still killed by kill().
    void freeze() { ::kill(pid_t(pid()), SIGSTOP); }
    void thaw() { ::kill(pid_t(pid()), SIGCONT); }

    // kill -9, as a crash would end it: no unlock, no shutdown hook, the watchdog stops with it.
    void kill()
    {
        m_process.kill();
        m_process.waitForFinished(30000);
    }

private:
    std::optional<QJsonObject> next(int timeoutMs)
    {
        const QDeadlineTimer deadline(timeoutMs);
        while (!m_process.canReadLine()) {
            if (m_process.state() == QProcess::NotRunning || deadline.hasExpired())
                return std::nullopt;
            // This thread's events are served meanwhile: a console under test acts on them (its force release is
            // a chain of replies), and Redisson's answer may wait for it.
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
            m_process.waitForReadyRead(int(qMin<qint64>(10, qMax<qint64>(1, deadline.remainingTime()))));
        }
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(m_process.readLine(), &error);
        return error.error == QJsonParseError::NoError ? std::optional(doc.object()) : std::nullopt;
    }

    QProcess m_process;
    QString m_version;
    QByteArray m_clientId;
    int m_lastId = 0;
    QHash<int, QJsonObject> m_replies;
};

// A request in a line: op on thread, of kind, for name, and the fields given.
inline QJsonObject redissonCall(
    const QString &op, const QString &thread, const QString &kind, const QByteArray &name, const QJsonObject &more = {})
{
    QJsonObject r = more;
    r.insert(QStringLiteral("op"), op);
    r.insert(QStringLiteral("thread"), thread);
    r.insert(QStringLiteral("kind"), kind);
    r.insert(QStringLiteral("name"), QString::fromUtf8(name));
    return r;
}

} // namespace LockScope::Test
