// "Why did my unlock fail?" in the console, as a person asks it: the table's holder, right-click, Explain this
// holder's story (the dialog filled in with that holder and lock, the story told from the console's recording); then
// the service's own error pasted into Tools › Explain a hold…, and Return in a field asks for the story (the dialog
// only reads). A real redis-server, the console's recording of the last hour.
#include "consolefixture.h"
#include "consolerecording.h"
#include "explaindialog.h"
#include "recording/recordingstore.h"
#include "translations.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
QStringList recordedTypes(const QString &path, const QByteArray &name)
{
    RecordingStore store;
    QString error;
    QStringList types;
    if (store.open(path, false, &error))
        for (const RecordedEvent &e : store.history(name, -1, -1, &error))
            types << QString::fromLatin1(e.type);
    return types;
}
} // namespace

class TestConsoleExplain : public QObject
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

    void aHoldersStoryFromTheTableAndFromAPastedError()
    {
        const QString path = m_dir.filePath(QStringLiteral("console.sqlite"));
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        recordConsole(c, m_server, path);
        QVERIFY(c.window.explainAction()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.isSnapshotComplete(), 30000);

        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("explain");
        raw.command({ "HSET", name, kTheirs, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        QTRY_VERIFY_WITH_TIMEOUT(recordedTypes(path, name).contains(QStringLiteral("acquired")), 30000);

        // The table's holder: right-click's Explain, filled in.
        c.window.locksPane()->selectLock(name);
        QTRY_COMPARE(c.window.locksPane()->currentLock(), name);
        QAction *explainHolder = nullptr;
        for (QAction *a : c.window.locksPane()->view()->actions())
            if (a->text() == QStringLiteral("E&xplain this holder's story…"))
                explainHolder = a;
        QVERIFY(explainHolder);
        explainHolder->trigger();
        QPointer<ExplainDialog> dialog = c.window.explainDialog();
        QVERIFY(dialog);
        QCOMPARE(dialog->ownerField()->text(), QString::fromUtf8(kTheirs));
        QCOMPARE(dialog->lockField()->text(), QString::fromUtf8(name));
        QSignalSpy explained(dialog.data(), &ExplainDialog::explained);
        QTest::mouseClick(dialog->explainButton(), Qt::LeftButton);
        QTRY_VERIFY(explained.count() == 1);
        QVERIFY2(dialog->storyText().contains(QStringLiteral("still held when the recording ends")),
            qPrintable(dialog->storyText()));
        dialog->close();
        QTRY_VERIFY(!dialog);

        // The holder's lock deleted under it; its service's error pasted into Tools › Explain a hold….
        raw.command({ "DEL", name });
        QTRY_VERIFY_WITH_TIMEOUT(recordedTypes(path, name).size() >= 2, 30000);
        c.window.explainAction()->trigger();
        dialog = c.window.explainDialog();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        const int colon = kTheirs.indexOf(':');
        dialog->messageField()->setFocus();
        QTest::keyClicks(dialog->messageField(),
            QStringLiteral("java.lang.IllegalMonitorStateException: attempt to unlock lock, not locked by current "
                           "thread by node id: %1 thread-id: %2")
                .arg(QString::fromUtf8(kTheirs.left(colon)), QString::fromUtf8(kTheirs.mid(colon + 1))));
        QSignalSpy explainedAgain(dialog.data(), &ExplainDialog::explained);
        // Return in a one-line field asks for the story: reading is all the dialog does.
        dialog->lockField()->setFocus();
        QTest::keyClick(dialog->lockField(), Qt::Key_Return);
        QTRY_VERIFY(explainedAgain.count() == 1);
        const QString story = dialog->storyText();
        QVERIFY2(story.startsWith(QStringLiteral("Redisson's unlock of a lock its thread does not hold:")),
            qPrintable(story));
        QVERIFY2(story.contains(QString::fromUtf8(name)) && story.contains(QStringLiteral("What it means:")),
            qPrintable(story));
        QVERIFY2(story.contains(QStringLiteral("released")), qPrintable(story));
        dialog->close();
    }
};

QTEST_MAIN(TestConsoleExplain)
#include "tst_consoleexplain.moc"
