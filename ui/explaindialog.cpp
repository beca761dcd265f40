#include "explaindialog.h"

#include "base/taskrelay.h"
#include "recording/explainer.h"
#include "recording/recordingstore.h"
#include "redis/bytesformat.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace LockScope {

ExplainDialog::ExplainDialog(QString recordingPath, QWidget *parent)
    : QDialog(parent)
    , m_path(std::move(recordingPath))
    , m_message(new QPlainTextEdit(this))
    , m_owner(new QLineEdit(this))
    , m_lock(new QLineEdit(this))
    , m_explain(new QPushButton(tr("&Explain"), this))
    , m_story(new QPlainTextEdit(this))
    , m_source(new QLabel(this))
    , m_relay(new TaskRelay(this))
{
    setWindowTitle(tr("Explain a hold"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Paste the error as the service logged it (Redisson's \"not locked by current "
                                    "thread\", redsync's, redis-py's, python-redis-lock's), or name the holder:"),
        this));
    m_message->setPlaceholderText(
        tr("attempt to unlock lock, not locked by current thread by node id: … thread-id: …"));
    m_message->setTabChangesFocus(true);
    layout->addWidget(m_message);
    auto *form = new QFormLayout;
    m_owner->setPlaceholderText(tr("CLIENT:THREAD"));
    form->addRow(tr("&Holder:"), m_owner);
    form->addRow(tr("&Lock:"), m_lock);
    layout->addLayout(form);
    m_story->setReadOnly(true);
    m_story->setMinimumHeight(160);
    layout->addWidget(m_story, 1);
    m_source->setText(tr("From the console's recording: %1").arg(m_path));
    m_source->setWordWrap(true);
    layout->addWidget(m_source);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_explain, QDialogButtonBox::ActionRole);
    m_explain->setDefault(true); // it only reads
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_explain, &QPushButton::clicked, this, &ExplainDialog::explain);
    layout->addWidget(buttons);
    resize(720, 480);
}

ExplainDialog::~ExplainDialog()
{
    if (m_worker.joinable())
        m_worker.join(); // a question on a recording ends in well under a second (bench_recording)
}

void ExplainDialog::setHolder(const QByteArray &owner, const QByteArray &lock)
{
    m_owner->setText(QString::fromUtf8(owner));
    m_lock->setText(escapeBytes(lock));
}

QString ExplainDialog::storyText() const
{
    return m_story->toPlainText();
}

void ExplainDialog::explain()
{
    if (m_worker.joinable())
        return; // one question at a time: the button is back once the answer is in
    ExplainRequest request;
    const QString message = m_message->toPlainText().trimmed();
    const bool recognised = !message.isEmpty() && ExplainRequest::parse(message, &request);
    if (!m_owner->text().trimmed().isEmpty())
        request.owner = m_owner->text().trimmed().toUtf8();
    if (!m_lock->text().trimmed().isEmpty())
        request.lock = unescapeBytes(m_lock->text().trimmed());
    if (request.owner.isEmpty() && request.lock.isEmpty()) {
        m_story->setPlainText(!message.isEmpty() && !recognised
                ? tr("Not a message LockScope knows; name the holder or the lock.")
                : tr("Paste the error, or name the holder or the lock."));
        emit explained();
        return;
    }
    if (!QFile::exists(m_path)) {
        m_story->setPlainText(tr("There is no recording yet (%1): turn on File › Record the last hour.").arg(m_path));
        emit explained();
        return;
    }
    m_explain->setEnabled(false);
    m_story->setPlainText(tr("Reading the recording…"));
    const QString recognisedText = recognised ? request.recognised : QString();
    m_worker = std::thread([this, request, recognisedText, path = m_path] {
        RecordingStore store;
        QString error;
        HoldStory story;
        if (store.open(path, false, &error))
            story = Explainer::explain(store, request, &error);
        m_relay->post([this, story, recognisedText, error] { showStory(story, recognisedText, error); });
    });
}

void ExplainDialog::showStory(const HoldStory &story, const QString &recognised, const QString &error)
{
    m_worker.join();
    m_explain->setEnabled(true);
    QStringList lines;
    if (!error.isEmpty())
        lines << error;
    else if (!recognised.isEmpty())
        lines << tr("%1:").arg(recognised);
    if (error.isEmpty())
        lines << story.lines();
    m_story->setPlainText(lines.join(QLatin1Char('\n')));
    emit explained();
}

} // namespace LockScope
