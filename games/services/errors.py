"""The refusal a service gives; its message is meant for the person who asked."""


class ServiceError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
