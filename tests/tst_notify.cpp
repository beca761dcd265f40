// Notifications: each audited action posted as JSON to a webhook (with a chat "text" line) and sent to syslog, tested
// against a loopback HTTP server and a syslog socket of the test's own. A hook that is down warns and changes nothing
// of the action; the CLI waits for the post before it exits.
#include "clirun.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

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

// A webhook: answers every request 200 and keeps each body.
class Hook : public QObject
{
public:
    Hook()
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                auto buffer = std::make_shared<QByteArray>();
                connect(s, &QTcpSocket::readyRead, s, [this, s, buffer] {
                    *buffer += s->readAll();
                    const int end = buffer->indexOf("\r\n\r\n");
                    if (end < 0)
                        return;
                    const QByteArray head = buffer->left(end).toLower();
                    const int at = head.indexOf("content-length:");
                    const int length
                        = at < 0 ? 0 : head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toInt();
                    if (buffer->size() < end + 4 + length)
                        return;
                    requests << qMakePair(buffer->left(buffer->indexOf("\r\n")), buffer->mid(end + 4, length));
                    s->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
                    s->disconnectFromHost();
                });
            }
        });
    }
    QString url() const
    {
        return QStringLiteral("http://127.0.0.1:%1/hooks/T000/B000/secret").arg(m_server.serverPort());
    }
    QList<QPair<QByteArray, QByteArray>> requests; // request line, body

private:
    QTcpServer m_server;
};

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
