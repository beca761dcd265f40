// The console keeps the last hour without being asked: File › Record the last hour is on the first time the console
// runs, the status bar says it records and how big the file is, and what the console saw is in the file for
// lockscope-cli's questions. Turned off from the menu it stops (remembered next time) and nothing more is written;
// on again it appends. A file that is not a recording is left as it is and the status bar says why nothing records.
#include "consolefixture.h"
#include "consolerecording.h"
#include "recording/recordingstore.h"
#include "translations.h"

#include <QAction>
#include <QCryptographicHash>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
int recordedOf(const QString &path, const QByteArray &name)
{
    RecordingStore store;
    QString error;
    if (!store.open(path, false, &error))
        return -1;
    return int(store.history(name, -1, -1, &error).size());
}

QAction *fileAction(MainWindow &window, const QString &text)
{
    for (QAction *menu : window.menuBar()->actions())
        if (menu->menu() && menu->text() == QLatin1String("&File"))
            for (QAction *a : menu->menu()->actions())
                if (a->text() == text)
                    return a;
    return nullptr;
}
} // namespace

class TestConsoleRecording : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        startConsoleTest(m_server, m_dir);
        QVERIFY(I18n::install(QStringLiteral("en")));
    }

    void recordsTheLastHourByDefault()
    {
        const QString path = m_dir.filePath(QStringLiteral("console.sqlite"));
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        ConsoleRecording *recording = recordConsole(c, m_server, path);
        QAction *toggle = fileAction(c.window, QStringLiteral("&Record the last hour"));
        QVERIFY(toggle);
        QVERIFY(toggle->isChecked()); // nobody turned it on: the default
        QLabel *indicator = recording->indicator();
        QVERIFY(c.window.statusBar()->isAncestorOf(indicator));
        QTRY_VERIFY(indicator->text().startsWith(QStringLiteral("● Recording the last hour · ")));

        // Events count from the monitor's first complete pass: a lock there before it is in the table, not an event.
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.isSnapshotComplete(), 30000);
        RawRedis raw(m_server.port());
        const QByteArray first = uniqueKey("console-rec");
        raw.command({ "HSET", first, kTheirs, "1" });
        raw.command({ "PEXPIRE", first, "600000" });
        QTRY_VERIFY_WITH_TIMEOUT(recordedOf(path, first) >= 1, 30000);
        QVERIFY(!indicator->text().endsWith(QStringLiteral(" 0 bytes")));

        // Off, from the menu: nothing more is kept, and the next console starts off.
        toggle->trigger();
        QCOMPARE(indicator->text(), QStringLiteral("Not recording"));
        QCOMPARE(QSettings().value(QStringLiteral("recording/lastHour")).toBool(), false);
        const QByteArray second = uniqueKey("console-rec");
        raw.command({ "HSET", second, kTheirs, "1" });
        raw.command({ "PEXPIRE", second, "600000" });
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(second) && c.monitor.record(second)->present, 30000);
        QCOMPARE(recordedOf(path, second), 0);

        // On again: it appends to the same file.
        toggle->trigger();
        QVERIFY(recording->isRecording());
        raw.command({ "DEL", second });
        QTRY_VERIFY_WITH_TIMEOUT(recordedOf(path, second) >= 1, 30000);
        QVERIFY(recordedOf(path, first) >= 1);
        raw.command({ "DEL", first });
    }

    void aFileThatIsNoRecordingIsLeftAlone()
    {
        QSettings().setValue(QStringLiteral("recording/lastHour"), true);
        const QString path = m_dir.filePath(QStringLiteral("notes.txt"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("meeting notes, not a recording\n");
        }
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        ConsoleRecording *recording = recordConsole(c, m_server, path);
        QTRY_VERIFY(recording->indicator()->text().startsWith(QStringLiteral("Not recording: ")));
        QVERIFY(recording->indicator()->text().contains(QStringLiteral("not a LockScope recording")));
        QVERIFY(!recording->toggle()->isChecked());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("meeting notes, not a recording\n"));
    }
};

QTEST_MAIN(TestConsoleRecording)
#include "tst_consolerecording.moc"
