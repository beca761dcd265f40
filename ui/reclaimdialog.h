#pragma once

#include "reclaim/reapreport.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace LockScope {

class ReclaimReportModel;
struct ReapRunDone;

// Tools › Reclaim by policy: lockscope-cli reap's report and approval in one window that does not block the console.
// A policy file is chosen, "Watch and report" watches the locks it covers for its longest verdict_for, and the report
// lists every holder its rules judge gone, with the evidence, and its hash. Releasing is the force release dialog's
// guards around exactly that report: no button is the default and Return and Enter do nothing at all (not even close
// the report being read), the release button has no mnemonic (ConfirmGuard), a reason goes into each audit record, a
// production server needs the policy's name typed, read-only mode offers nothing. The dialog only shows and asks; the
// flow (ReclaimFlow) watches, re-checks, releases and audits.
class ReclaimDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ReclaimDialog(QWidget *parent = nullptr);

    void setReadOnly(bool readOnly);
    // A production server: the policy's name must be typed before the button confirms.
    void setProduction(bool production);

    // A policy that could not be loaded, or a watch that could not start: said, and any report shown stays.
    void showError(const QString &text);
    // A watch under way: the previous report goes, nothing can be released until the new one is shown.
    void showWatching(const QString &text);
    void showReport(const ReapReport &report);
    // The re-check and the releases are under way: nothing more can be started until they end.
    void showRunning();
    // After a run: each item's result, the summary, what the re-check found beyond the report shown.
    void showResult(const ReapRunDone &done);

    QString reason() const;
    // Whether the button confirms: a report with something to release, not yet acted on, writable, and on production
    // the policy's name typed.
    bool confirmed() const { return whyNot().isEmpty(); }
    // Why the button does not confirm; empty once it does.
    QString whyNot() const;

    ReclaimReportModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QLineEdit *policyField() const { return m_path; }
    QPushButton *browseButton() const { return m_browse; }
    QPushButton *watchButton() const { return m_watch; }
    QPushButton *releaseButton() const { return m_release; }
    QLineEdit *reasonField() const { return m_reason; }
    QLineEdit *nameField() const { return m_name; }
    QString statusText() const;
    QString shaText() const;

signals:
    void watchRequested(const QString &path);
    void releaseRequested();

protected:
    void showEvent(QShowEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    enum class State { Idle, Watching, Reported, Running, Ran };

    void browse();
    void updateConfirm();

    State m_state = State::Idle;
    bool m_readOnly = false;
    bool m_production = false;
    ReclaimReportModel *m_model;
    QLineEdit *m_path;
    QPushButton *m_browse;
    QPushButton *m_watch;
    QLabel *m_status;
    QTableView *m_view;
    QLabel *m_sha;
    QLineEdit *m_reason;
    QLabel *m_nameLabel;
    QLineEdit *m_name;
    QLabel *m_why;
    QPushButton *m_release;
};

} // namespace LockScope
