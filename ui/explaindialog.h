#pragma once

#include <QDialog>

#include <thread>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace LockScope {

struct HoldStory;
class TaskRelay;

// "Why did my unlock fail?" in the console (docs/recording.md#explain): paste the error as the service logged it, or
// name a holder (the table's holder fills it in), and the story of that hold is told from the console's recording of
// the last hour, as lockscope-cli explain tells it. It only reads: Explain is the default button, and Return in the
// one-line fields asks for the story. The recording is read on a thread of the dialog's own: a question on a big
// file never holds up the window.
class ExplainDialog : public QDialog
{
    Q_OBJECT
public:
    ExplainDialog(QString recordingPath, QWidget *parent = nullptr);
    ~ExplainDialog() override;

    void setHolder(const QByteArray &owner, const QByteArray &lock);
    QPlainTextEdit *messageField() const { return m_message; }
    QLineEdit *ownerField() const { return m_owner; }
    QLineEdit *lockField() const { return m_lock; }
    QPushButton *explainButton() const { return m_explain; }
    QString storyText() const;

signals:
    void explained(); // the story (or why there is none) is shown

private:
    void explain();
    void showStory(const HoldStory &story, const QString &recognised, const QString &error);

    QString m_path;
    QPlainTextEdit *m_message;
    QLineEdit *m_owner;
    QLineEdit *m_lock;
    QPushButton *m_explain;
    QPlainTextEdit *m_story;
    QLabel *m_source;
    TaskRelay *m_relay;
    std::thread m_worker;
};

} // namespace LockScope
