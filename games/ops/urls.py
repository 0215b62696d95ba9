"""The operator's URLs: health and metrics (included by blotsite/urls.py)."""

from django.urls import path

from games.ops import health, metrics

urlpatterns = [
    path("health/", health.live, name="health"),
    path("health/ready/", health.ready, name="health_ready"),
    path("metrics", metrics.metrics, name="metrics"),
]
