FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DECKHAND_DB=/data/deckhand.sqlite3 \
    DECKHAND_WEB=0.0.0.0:8080

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY games ./games
COPY web ./web
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 deckhand \
    && mkdir -p /data && chown deckhand:deckhand /data

USER deckhand
VOLUME ["/data"]
# The servers' sites (docs/web.md): publish it to your HTTPS proxy, e.g. -p 127.0.0.1:8080:8080.
EXPOSE 8080
CMD ["python", "-m", "bot"]
