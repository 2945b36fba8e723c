from __future__ import annotations

from django.contrib.auth.views import LogoutView
from django.urls import include, path

from classroom.views import (
    accounts,
    analytics,
    assignments,
    class_shares,
    classes,
    diagnostics,
    exports,
    health,
    home,
    home_reports,
    join,
    play,
    practice,
    rosters,
    school_admin,
    sessions,
    sso,
    warmup,
    web_app,
)
from classroom.views.preferences import teacher_settings

urlpatterns = [
    path("", home.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    # At the root: a service worker controls only the pages under its own address.
    path("sw.js", web_app.service_worker, name="service_worker"),
    path("manifest.webmanifest", web_app.manifest, name="web_app_manifest"),
    # Teachers
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/signup/sent/", accounts.signup_sent, name="signup_sent"),
    path("accounts/signup/<str:token>/", accounts.signup_confirm, name="signup_confirm"),
    path(
        "accounts/invitation/<str:token>/",
        accounts.invitation_accept_page,
        name="invitation_accept",
    ),
    path("accounts/login/", accounts.RateLimitedLoginView.as_view(), name="login"),
    path("accounts/logout/", LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/", accounts.TeacherPasswordChangeView.as_view(), name="password_change"
    ),
    # Single sign-on (classroom/sso/): only allauth's OpenID Connect sign-in and callback, at
    # accounts/oidc/<provider>/login/(callback/); its own account pages are not routed. The names
    # below are the ones its flow can send to, each back to the log-in page.
    path("accounts/", include("allauth.socialaccount.providers.openid_connect.urls")),
    path("accounts/sso/stopped/", sso.sign_in_stopped, name="socialaccount_signup"),
    path("accounts/sso/cancelled/", sso.sign_in_stopped, name="socialaccount_login_cancelled"),
    path("accounts/sso/inactive/", sso.sign_in_stopped, name="account_inactive"),
    path(
        "accounts/password/reset/",
        accounts.TeacherPasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        accounts.TeacherPasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        accounts.TeacherPasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        accounts.TeacherPasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    # A school admin's pages (404 for anyone else)
    path("school/teachers/", school_admin.school_teachers, name="school_teachers"),
    path("school/teachers/invite/", school_admin.school_invite, name="school_invite"),
    path(
        "school/teachers/<int:user_id>/<slug:action>/",
        school_admin.school_teacher_action,
        name="school_teacher_action",
    ),
    path("school/audit/", school_admin.school_audit, name="school_audit"),
    path("settings/", teacher_settings, name="teacher_settings"),
    path("classes/new/", classes.class_new, name="class_new"),
    path("classes/<int:class_id>/", classes.class_detail, name="class_detail"),
    path("classes/<int:class_id>/edit/", classes.class_edit, name="class_edit"),
    path("classes/<int:class_id>/roster/", rosters.class_roster, name="class_roster"),
    path(
        "classes/<int:class_id>/roster/preview/",
        rosters.class_roster_preview,
        name="class_roster_preview",
    ),
    path(
        "classes/<int:class_id>/roster/confirm/",
        rosters.class_roster_confirm,
        name="class_roster_confirm",
    ),
    path("classes/<int:class_id>/badges/", classes.class_badges, name="class_badges"),
    path(
        "classes/<int:class_id>/students/<int:student_id>/rotate/",
        classes.student_rotate,
        name="student_rotate",
    ),
    path(
        "classes/<int:class_id>/students/<int:student_id>/remove/",
        classes.student_remove,
        name="student_remove",
    ),
    path(
        "classes/<int:class_id>/students/<int:student_id>/colour-safe/",
        classes.student_colour_safe,
        name="student_colour_safe",
    ),
    path(
        "classes/<int:class_id>/students/<int:student_id>/extra-time/",
        classes.student_extra_time,
        name="student_extra_time",
    ),
    path(
        "classes/<int:class_id>/students/<int:student_id>/practice-warmup/",
        classes.student_practice_warmup,
        name="student_practice_warmup",
    ),
    path(
        "classes/<int:class_id>/students/<int:student_id>/year-group/",
        classes.student_year_group,
        name="student_year_group",
    ),
    path("classes/<int:class_id>/delete/", classes.class_delete, name="class_delete"),
    path("classes/<int:class_id>/shares/", class_shares.class_share_add, name="class_share_add"),
    path(
        "classes/<int:class_id>/shares/<int:share_id>/revoke/",
        class_shares.class_share_revoke,
        name="class_share_revoke",
    ),
    path("classes/<int:class_id>/practice/", assignments.class_practice, name="class_practice"),
    path(
        "classes/<int:class_id>/practice/code/<slug:action>/",
        assignments.practice_code_action,
        name="practice_code_action",
    ),
    path(
        "classes/<int:class_id>/practice/levels/",
        assignments.assignment_levels,
        name="assignment_levels",
    ),
    path(
        "classes/<int:class_id>/practice/<int:assignment_id>/remove/",
        assignments.assignment_remove,
        name="assignment_remove",
    ),
    # Analytics (teacher only; 404 for anyone else)
    path("classes/<int:class_id>/progress/", analytics.class_overview, name="class_overview"),
    path(
        "classes/<int:class_id>/progress/print/",
        analytics.class_progress_print,
        name="class_progress_print",
    ),
    path(
        "classes/<int:class_id>/progress/print/prepare/",
        analytics.class_reports_prepare,
        name="class_reports_prepare",
    ),
    path(
        "classes/<int:class_id>/students/<int:student_id>/progress/",
        analytics.student_progress,
        name="student_progress",
    ),
    path(
        "classes/<int:class_id>/export/workbook/prepare/",
        exports.class_export_prepare,
        name="class_export_prepare",
    ),
    path("classes/<int:class_id>/export/<str:kind>/", exports.class_export, name="class_export"),
    path("sessions/<int:session_id>/report/", analytics.session_report, name="session_report"),
    path(
        "sessions/<int:session_id>/report/seats/<int:seat_id>/",
        analytics.session_report_seat,
        name="session_report_seat",
    ),
    path(
        "sessions/<int:session_id>/report/seats/<int:seat_id>/keep/",
        analytics.run_keep,
        name="run_keep",
    ),
    path(
        "sessions/<int:session_id>/export/workbook/prepare/",
        exports.session_export_prepare,
        name="session_export_prepare",
    ),
    path(
        "sessions/<int:session_id>/export/<str:kind>/",
        exports.session_export,
        name="session_export",
    ),
    path(
        "classes/<int:class_id>/home-reports/prepare/",
        home_reports.class_home_reports_prepare,
        name="class_home_reports_prepare",
    ),
    path(
        "classes/<int:class_id>/students/<int:student_id>/home-report/prepare/",
        home_reports.student_home_report_prepare,
        name="student_home_report_prepare",
    ),
    path(
        "exports/<int:export_id>/home/", home_reports.home_report_status, name="home_report_status"
    ),
    path(
        "exports/<int:export_id>/home/file/",
        home_reports.home_report_file,
        name="home_report_file",
    ),
    path("exports/<int:export_id>/", exports.export_status, name="export_status"),
    path("exports/<int:export_id>/file/", exports.export_file, name="export_file"),
    path("exports/<int:export_id>/again/", exports.export_again, name="export_again"),
    path("sessions/new/", sessions.session_new, name="session_new"),
    path("sessions/new/settings/", sessions.session_settings_fields, name="session_settings"),
    path("sessions/new/length/", sessions.session_length, name="session_length"),
    path("sessions/<int:session_id>/", sessions.session_console, name="session_console"),
    path(
        "sessions/<int:session_id>/projector/",
        sessions.session_projector,
        name="session_projector",
    ),
    path(
        "sessions/<int:session_id>/play-again/settings/",
        sessions.session_play_again,
        name="session_play_again",
    ),
    # Before session_action, whose <slug:action> would take "delete".
    path(
        "sessions/<int:session_id>/delete/",
        sessions.session_delete_confirm,
        name="session_delete_confirm",
    ),
    path(
        "sessions/<int:session_id>/delete/confirmed/",
        sessions.session_delete,
        name="session_delete",
    ),
    path(
        "sessions/<int:session_id>/<slug:action>/",
        sessions.session_action,
        name="session_action",
    ),
    path(
        "sessions/<int:session_id>/seats/<int:seat_id>/<slug:action>/",
        sessions.seat_action,
        name="seat_action",
    ),
    # Students
    path("join/", join.join, name="join"),
    path("join/<str:code>/", join.join_session, name="join_session"),
    path("b/<str:token>/", join.join_badge, name="join_badge"),
    # Practice on a tablet, no teacher in the loop
    path("practice/", practice.practice_home, name="practice_home"),
    path("practice/sign-in/", practice.practice_sign_in, name="practice_sign_in"),
    path(
        "practice/sign-in/<str:code>/",
        practice.practice_sign_in_class,
        name="practice_sign_in_class",
    ),
    path("practice/sign-out/", practice.practice_sign_out, name="practice_sign_out"),
    path("practice/start/", practice.practice_start, name="practice_start"),
    path("practice/join-class/", practice.practice_join_class, name="practice_join_class"),
    path("practice/progress/", practice.practice_progress, name="practice_progress"),
    path("practice/warmup/", practice.practice_warmup_choose, name="practice_warmup_choose"),
    path("practice/<str:code>/finish/", practice.practice_finish, name="practice_finish"),
    path("practice/<str:code>/", practice.practice_result, name="practice_result"),
    path("play/<str:code>/", play.play_lobby, name="play_lobby"),
    path("play/<str:code>/leave/", play.play_leave, name="play_leave"),
    path("play/<str:code>/device/", warmup.play_device, name="play_device"),
    path("play/<str:code>/warmup/", warmup.play_warmup, name="play_warmup"),
    # Off unless SNAPCLASS_DIAGNOSTICS=1 (404); loopback only.
    path("_diagnostics/", diagnostics.diagnostics, name="diagnostics"),
    # For the proxy's health checks and monitors: no login, no redirect (SECURE_REDIRECT_EXEMPT).
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", health.metrics, name="metrics"),
]
