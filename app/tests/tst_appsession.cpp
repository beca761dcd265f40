// The app's session and its window, as a person meets them, against real redis-servers: a --url that cannot be used
// is said in the window; a refused connection says it retries, and in how long; wrong credentials say it does not
// retry, and the table's rows are greyed with since when; the line under the URL says what the window shows and
// whether its actions write.
#include "appsession.h"
#include "lockspane.h"
#include "mainwindow.h"
#include "redisserver.h"

#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestAppSession : public QObject
{
    Q_OBJECT

    // A loopback port nobody listens on: the kernel's choice, given back at once.
    static quint16 refusingPort()
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        return probe.serverPort();
    }

    QTemporaryDir m_dir;

private slots:
    // What a session keeps (the console's recording, its settings, the audit log) stays in the test's directory.
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        qputenv("LOCKSCOPE_AUDIT_LOG", m_dir.filePath(QStringLiteral("audit.log")).toUtf8());
    }

    void badUrlIsShownInTheWindow()
    {
        MainWindow window;
        AppSession session(&window);
        session.showUnusableUrl(QStringLiteral("unsupported scheme \"http\""));
        QVERIFY2(window.connectionStateText().contains(QStringLiteral("bad --url: unsupported scheme")),
            qPrintable(window.connectionStateText()));
        QVERIFY(window.connectionStateText().contains(QStringLiteral("not retrying")));
        QVERIFY2(window.note().contains(QStringLiteral("File › Connect")), qPrintable(window.note()));
        QVERIFY(!window.locksPane()); // connected nowhere
    }

    void refusedConnectionSaysWhenItRetries()
    {
        MainWindow window;
        AppSession session(&window);
        session.connectTo(ConnectionOptions::fromUrl(QStringLiteral("redis://127.0.0.1:%1").arg(refusingPort())));
        QTRY_VERIFY2_WITH_TIMEOUT(window.connectionStateText().contains(QStringLiteral("; retrying in ")),
            qPrintable(window.connectionStateText()), 15000);
        QVERIFY2(window.connectionStateText().contains(QStringLiteral("disconnected: ")),
            qPrintable(window.connectionStateText()));
        // Once the first attempt's deadline has passed too, the header still names the refusal, not a timeout.
        QTRY_VERIFY2_WITH_TIMEOUT(window.connectionStateText().contains(QStringLiteral("Connection refused")),
            qPrintable(window.connectionStateText()), 15000);
        QVERIFY2(!window.connectionStateText().contains(QStringLiteral("timeout")),
            qPrintable(window.connectionStateText()));
        QVERIFY(window.locksPane());
        QVERIFY(window.locksPane()->isStale());
        // Never reached: nothing was read, so no rows "as last read" (issue 47).
        QVERIFY2(window.locksPane()->staleText().startsWith(QStringLiteral("Not connected since "))
                && window.locksPane()->staleText().contains(QStringLiteral("nothing has been read")),
            qPrintable(window.locksPane()->staleText()));
    }

    void wrongCredentialsAreNotRetried()
    {
        RedisServerOptions withPassword;
        withPassword.requirePass = QStringLiteral("right");
        RedisServer server(withPassword);
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        MainWindow window;
        AppSession session(&window);
        ConnectionOptions options = ConnectionOptions::fromUrl(server.url());
        options.password = "wrong";
        session.connectTo(options);
        QTRY_VERIFY2_WITH_TIMEOUT(window.connectionStateText().contains(QStringLiteral("not retrying")),
            qPrintable(window.connectionStateText()), 15000);
        QVERIFY(!window.connectionStateText().contains(QStringLiteral("retrying in")));
    }

    // The line under the URL says what is true: which locks the table shows, and whether the actions write.
    void noteSaysWhatTheWindowShows()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        MainWindow window;
        AppSession session(&window);
        session.connectTo(ConnectionOptions::fromUrl(server.url()));
        QVERIFY2(window.note().contains(QStringLiteral("every lock on this server")), qPrintable(window.note()));
        QVERIFY2(window.note().contains(QStringLiteral("audit log")), qPrintable(window.note()));
        QVERIFY(!window.note().contains(QStringLiteral("All locks")));
        ConnectionOptions readOnly = ConnectionOptions::fromUrl(server.url());
        readOnly.readOnly = true;
        QVERIFY2(session.connectionNote(readOnly).contains(QStringLiteral("Read-only")),
            qPrintable(session.connectionNote(readOnly)));
        QTRY_VERIFY_WITH_TIMEOUT(window.connectionStateText().contains(QStringLiteral("connected")), 15000);
    }
};

QTEST_MAIN(TestAppSession)
#include "tst_appsession.moc"
