// Notifications: each audited action posted as JSON to a webhook (with a chat "text" line) and sent to syslog, tested
// against a loopback HTTP server and a syslog socket of the test's own. A hook that is down warns and changes nothing
// of the action; the CLI waits for the post before it exits.
#include "clirun.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"
#include "webhook.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";

// A syslog daemon's socket: a datagram socket of the test's own.
class SyslogSocket
{
public:
    explicit SyslogSocket(const QString &path)
        : m_path(path)
    {
        m_fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_un a {};
        a.sun_family = AF_UNIX;
        const QByteArray p = path.toLocal8Bit();
        std::memcpy(a.sun_path, p.constData(), size_t(p.size()));
        m_bound = ::bind(m_fd, reinterpret_cast<const sockaddr *>(&a), socklen_t(sizeof(a))) == 0;
    }
    ~SyslogSocket() { ::close(m_fd); }
    bool bound() const { return m_bound; }
    QByteArray read() const
    {
        char buffer[65536];
        const ssize_t n = ::recv(m_fd, buffer, sizeof(buffer), MSG_DONTWAIT);
        return n > 0 ? QByteArray(buffer, int(n)) : QByteArray();
    }

private:
    QString m_path;
    int m_fd = -1;
    bool m_bound = false;
};
} // namespace

class TestNotify : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void aForceReleaseIsPostedAndLogged()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("notify");
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        Hook hook;
        SyslogSocket syslog(m_dir.filePath(QStringLiteral("log.sock")));
        QVERIFY(syslog.bound());
        QProcess p;
        startCli(p,
            { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
                QStringLiteral("--reason"), QStringLiteral("INC-4711"), QStringLiteral("--notify"), hook.url(),
                QStringLiteral("--syslog-socket"), m_dir.filePath(QStringLiteral("log.sock")), QStringLiteral("--url"),
                m_server.url() },
            m_dir);
        // The hook lives on this thread: serve it while the CLI runs.
        const CliRun r = finishCli(p, 30000, CliWait::ServeEvents);
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.type(name), QByteArray("none"));

        // Posted before the CLI exited: the request is here already.
        QCOMPARE(hook.requests.size(), 1);
        QVERIFY2(hook.requests.first().first.startsWith("POST /hooks/T000/B000/secret"),
            hook.requests.first().first.constData());
        const QJsonObject body = QJsonDocument::fromJson(hook.requests.first().second).object();
        QCOMPARE(body.value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(body.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        QCOMPARE(body.value(QStringLiteral("outcome")).toString(), QStringLiteral("deleted"));
        QCOMPARE(body.value(QStringLiteral("reason")).toString(), QStringLiteral("INC-4711"));
        const QString text = body.value(QStringLiteral("text")).toString();
        QVERIFY2(text.contains(QStringLiteral("force-release ") + QString::fromUtf8(name))
                && text.contains(QStringLiteral("deleted")) && text.contains(QStringLiteral("INC-4711")),
            qPrintable(text));

        const QByteArray logged = syslog.read();
        QVERIFY2(logged.startsWith("<85>lockscope-cli["), logged.constData());
        const QJsonObject line = QJsonDocument::fromJson(logged.mid(logged.indexOf("]: ") + 3)).object();
        QCOMPARE(line.value(QStringLiteral("action")).toString(), QStringLiteral("force-release"));
        QCOMPARE(line.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
    }

    // The reaper's report is posted too, before anyone approves it: the people who approve learn of it there.
    void aReapReportIsPosted()
    {
        const QByteArray prefix = uniqueKey("notify-reap");
        QFile policy(m_dir.filePath(QStringLiteral("reap.yaml")));
        QVERIFY(policy.open(QIODevice::WriteOnly));
        policy.write(
            "name: nightly\nrules:\n  - pattern: \"" + prefix + ":*\"\n    min_age: 1h\n    verdict_for: 0s\n");
        policy.close();
        Hook hook;
        QProcess p;
        startCli(p,
            { QStringLiteral("reap"), QStringLiteral("--policy"), policy.fileName(), QStringLiteral("--dry-run"),
                QStringLiteral("--json"), QStringLiteral("--notify"), hook.url(), QStringLiteral("--url"),
                m_server.url() },
            m_dir);
        const CliRun r = finishCli(p, 30000, CliWait::ServeEvents);
        CLI_EXIT(r, CliExit::Done);
        const QJsonObject summary = QJsonDocument::fromJson(r.out.trimmed().split('\n').last()).object();
        QCOMPARE(hook.requests.size(), 1);
        const QJsonObject body = QJsonDocument::fromJson(hook.requests.first().second).object();
        QCOMPARE(body.value(QStringLiteral("action")).toString(), QStringLiteral("reap-report"));
        QCOMPARE(body.value(QStringLiteral("name")).toString(), QStringLiteral("nightly"));
        QCOMPARE(body.value(QStringLiteral("report_sha256")).toString(),
            summary.value(QStringLiteral("report_sha256")).toString());
        QCOMPARE(body.value(QStringLiteral("to_release")).toInt(), 0);
        QVERIFY2(body.value(QStringLiteral("text")).toString().contains(QStringLiteral("reap-report nightly")),
            hook.requests.first().second.constData());
    }

    void aHookThatIsDownWarnsAndChangesNothingOfTheAction()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("notify-down");
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        QTcpServer closed; // a port nobody listens on any more
        QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
        const quint16 port = closed.serverPort();
        closed.close();
        const CliRun r = runCli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
                                    QStringLiteral("--notify"), QStringLiteral("http://127.0.0.1:%1/hook").arg(port),
                                    QStringLiteral("--url"), m_server.url() },
            m_dir);
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.type(name), QByteArray("none"));
        QVERIFY2(r.err.contains("warning: could not notify webhook http://127.0.0.1:"), r.describe().constData());
    }
};

QTEST_GUILESS_MAIN(TestNotify)
#include "tst_notify.moc"
