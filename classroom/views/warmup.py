"""A seated tablet's own report: its device (every game page sends it once) and the
warm-up's taps (``templates/play/warmup.html``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpResponse, JsonResponse
from django.views.decorators.http import require_POST

from classroom.forms.devices import DeviceReportForm, WarmupForm
from classroom.join_codes import join_code_normalize
from classroom.people.seat_cookies import seat_cookie_get
from classroom.selectors.sessions import seat_get_by_token, session_get_by_code
from classroom.services.devices import device_get_or_create, seat_device_set, warmup_record

if TYPE_CHECKING:
    from django.http import HttpRequest

    from classroom.models import Device, Seat


def _seat(request: HttpRequest, code: str) -> Seat | None:
    """The tablet's seat in the session ``code``, unless the teacher removed it."""
    session = session_get_by_code(code=join_code_normalize(code))
    if session is None:
        return None
    seat = seat_get_by_token(session=session, token=seat_cookie_get(request, code=session.code))
    return None if seat is None or seat.is_kicked else seat


def _refused(form: DeviceReportForm) -> JsonResponse:
    messages = [str(message) for errors in form.errors.values() for message in errors]
    return JsonResponse({"ok": False, "message": " ".join(messages)}, status=400)


def _device(request: HttpRequest, form: DeviceReportForm, seat: Seat) -> Device:
    device = device_get_or_create(
        user_agent=request.headers.get("user-agent", ""),
        screen_width=form.cleaned_data["screen_width"],
        screen_height=form.cleaned_data["screen_height"],
        frame_interval_ms=form.cleaned_data["frame_interval_ms"],
    )
    seat_device_set(seat=seat, device=device)
    return device


def _reported(
    request: HttpRequest, code: str, form_class: type[DeviceReportForm]
) -> tuple[Seat, DeviceReportForm, Device] | JsonResponse:
    """The seat, its valid report and the device it names (now the seat's); or the answer
    that refuses the report, which then changes nothing."""
    seat = _seat(request, code)
    if seat is None:
        return JsonResponse({"ok": False}, status=403)
    form = form_class(request.POST)
    if not form.is_valid():
        return _refused(form)
    return seat, form, _device(request, form, seat)


@require_POST
def play_device(request: HttpRequest, code: str) -> HttpResponse:
    reported = _reported(request, code, DeviceReportForm)
    if isinstance(reported, JsonResponse):
        return reported
    return JsonResponse({"ok": True})


@require_POST
def play_warmup(request: HttpRequest, code: str) -> HttpResponse:
    reported = _reported(request, code, WarmupForm)
    if isinstance(reported, JsonResponse):
        return reported
    seat, form, device = reported
    warmup = warmup_record(seat=seat, device=device, rts=form.cleaned_data["rts"])
    return JsonResponse({"ok": True, "median_ms": warmup.median_ms})
