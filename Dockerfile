FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DECKHAND_DB=/data/deckhand.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY games ./games
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 deckhand \
    && mkdir -p /data && chown deckhand:deckhand /data

USER deckhand
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
